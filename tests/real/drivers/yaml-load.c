/* libyaml: a whole document loaded from symbolic text, its root node inspected. */
#include "yaml-driver.h"

int main(void) {
  yaml_parser_t parser;
  parser_on_symbolic_input(&parser);
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
