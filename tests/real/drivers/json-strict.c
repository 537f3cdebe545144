/* json-c: the incremental tokener in strict mode over a symbolic buffer of fixed length, with
 * the error it ends on. */
#include <json.h>

#ifndef INPUT_SIZE
#define INPUT_SIZE 10
#endif
#include "driver.h"

int main(void) {
  char text[INPUT_SIZE];
  symbolic_input(text, sizeof text);
  json_tokener *tok = json_tokener_new();
  json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
  json_object *o = json_tokener_parse_ex(tok, text, sizeof text);
  enum json_tokener_error e = json_tokener_get_error(tok);
  json_object_put(o);
  json_tokener_free(tok);
  return (int)e;
}
