/* json-c: json_tokener_parse on a NUL-terminated symbolic text, then the object freed. */
#include <json.h>

#ifndef INPUT_SIZE
#define INPUT_SIZE 10
#endif
#include "driver.h"

int main(void) {
  char text[INPUT_SIZE];
  symbolic_text(text, sizeof text);
  json_object *o = json_tokener_parse(text);
  json_object_put(o);
  return o != NULL;
}
