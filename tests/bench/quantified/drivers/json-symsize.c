/* json-c: json_tokener_parse on a text of symbolic length n (the paper's drivers give their
 * subjects symbolic-size input): strlen and the tokenizer loop over it. */
#include <json.h>
#include <stdlib.h>
#include "cairn.h"

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  char *text = malloc(n + 1);
  klee_make_symbolic(text, n + 1, "text");
  text[n] = 0;
  json_object *o = json_tokener_parse(text);
  json_object_put(o);
  return o != NULL;
}
