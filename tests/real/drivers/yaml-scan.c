/* libyaml: the scanner's tokens over a symbolic text, to the end or the first error. */
#include "yaml-driver.h"

int main(void) {
  yaml_parser_t parser;
  parser_on_symbolic_input(&parser);
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
