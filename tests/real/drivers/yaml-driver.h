/* The libyaml drivers' start: a parser reading INPUT_SIZE symbolic bytes. */
#ifndef CAIRN_YAML_DRIVER_H
#define CAIRN_YAML_DRIVER_H

#include <yaml.h>

#ifndef INPUT_SIZE
#define INPUT_SIZE 6
#endif
#include "driver.h"

static unsigned char yaml_input[INPUT_SIZE];

static inline void parser_on_symbolic_input(yaml_parser_t *parser) {
  symbolic_input(yaml_input, sizeof yaml_input);
  yaml_parser_initialize(parser);
  yaml_parser_set_input_string(parser, yaml_input, sizeof yaml_input);
}

#endif
