/* json-c: json_tokener_parse on a NUL-terminated symbolic text, then the object freed. */
#include <json.h>

#include "cairn.h"

#ifndef INPUT_SIZE
#define INPUT_SIZE 10
#endif

int main(void) {
  char text[INPUT_SIZE];
  klee_make_symbolic(text, sizeof text, "input");
  text[INPUT_SIZE - 1] = 0;
  json_object *o = json_tokener_parse(text);
  json_object_put(o);
  return o != NULL;
}
