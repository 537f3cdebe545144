/* json-c: a JSON pointer (RFC 6901) read from symbolic text, resolved in a fixed document. */
#include <json.h>

#ifndef INPUT_SIZE
#define INPUT_SIZE 6
#endif
#include "driver.h"

int main(void) {
  json_object *doc = json_tokener_parse("{\"a\": [1, {\"b~c\": 2}], \"d/e\": null}");
  char path[INPUT_SIZE];
  symbolic_text(path, sizeof path);
  json_object *found = NULL;
  int rc = json_pointer_get(doc, path, &found);
  json_object_put(doc);
  return rc == 0 ? 0 : 1;
}
