/* json-c: json_tokener_parse on a text of symbolic length n (the paper's drivers give their
 * subjects symbolic-size input): strlen and the tokenizer loop over it. */
#include <json.h>

#include "driver.h"

int main(void) {
  char *text = symbolic_length_text();
  json_object *o = json_tokener_parse(text);
  json_object_put(o);
  return o != NULL;
}
