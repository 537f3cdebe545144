/* libyaml: the scanner's tokens over a symbolic text, to the end or the first error. */
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
  yaml_token_t token;
  int tokens = 0;
  while (yaml_parser_scan(&parser, &token)) {
    yaml_token_type_t type = token.type;
    yaml_token_delete(&token);
    ++tokens;
    if (type == YAML_STREAM_END_TOKEN)
      break;
  }
  yaml_parser_delete(&parser);
  return tokens;
}
