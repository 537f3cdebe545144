/* libyaml: a whole document loaded from symbolic text, its root node inspected. */
#include <yaml.h>

#ifndef INPUT_SIZE
#define INPUT_SIZE 6
#endif
#include "driver.h"

int main(void) {
  unsigned char text[INPUT_SIZE];
  symbolic_input(text, sizeof text);
  yaml_parser_t parser;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, text, sizeof text);
  yaml_document_t document;
  int rc = 0;
  if (yaml_parser_load(&parser, &document)) {
    yaml_node_t *root = yaml_document_get_root_node(&document);
    rc = root ? (int)root->type : 0;
    yaml_document_delete(&document);
  } else {
    rc = -1;
  }
  yaml_parser_delete(&parser);
  return rc;
}
