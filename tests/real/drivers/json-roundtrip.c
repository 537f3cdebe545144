/* json-c: parse, print back (plain and pretty), and parse the printed text again: it must give
 * the same text. */
#include <json.h>
#include <string.h>

#ifndef INPUT_SIZE
#define INPUT_SIZE 8
#endif
#include "driver.h"

int main(void) {
  char text[INPUT_SIZE];
  symbolic_text(text, sizeof text);
  json_object *o = json_tokener_parse(text);
  if (!o)
    return 1;
  const char *printed = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
  json_object *again = json_tokener_parse(printed);
  klee_assert(again != NULL);
  klee_assert(strcmp(printed, json_object_to_json_string_ext(again, JSON_C_TO_STRING_PLAIN)) == 0);
  (void)json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY);
  json_object_put(again);
  json_object_put(o);
  return 0;
}
