/* apr: its string module on a text of symbolic length n (the paper's apr subject: strings, file
 * I/O and tables): the text tokenized with apr_strtok on a separator set (strchr over the
 * separators for every character) and its white space collapsed with apr_collapse_spaces. */
#include <apr_strings.h>
#include <string.h>

#include "driver.h"

int main(void) {
  char *text = symbolic_length_text();
  char *copy = strdup(text);
  char *last = NULL;
  int tokens = 0;
  for (char *t = apr_strtok(text, " ,;", &last); t; t = apr_strtok(NULL, " ,;", &last))
    ++tokens;
  apr_collapse_spaces(copy, copy);
  return tokens > 2;
}
