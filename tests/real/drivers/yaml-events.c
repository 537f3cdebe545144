/* libyaml: the parser's events over a symbolic text, to the end or the first error. */
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
