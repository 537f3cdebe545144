/* libyaml: the parser's events over a symbolic text, to the end or the first error. */
#include "yaml-driver.h"

int main(void) {
  yaml_parser_t parser;
  parser_on_symbolic_input(&parser);
  yaml_event_t event;
  int ok;
  while ((ok = yaml_parser_parse(&parser, &event))) {
    yaml_event_type_t type = event.type;
    yaml_event_delete(&event);
    if (type == YAML_STREAM_END_EVENT)
      break;
  }
  yaml_error_type_t error = parser.error;
  yaml_parser_delete(&parser);
  return ok ? 0 : (int)error;
}
