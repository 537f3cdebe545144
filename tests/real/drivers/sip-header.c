/* libosip2: symbolic values of the Via, From and Content-Type headers parsed. */
#include <osipparser2/osip_parser.h>

#ifndef INPUT_SIZE
#define INPUT_SIZE 8
#endif
#include "driver.h"

int main(void) {
  char text[INPUT_SIZE];
  symbolic_text(text, sizeof text);
  parser_init();
  int rc = 0;
  osip_via_t *via;
  osip_via_init(&via);
  rc |= osip_via_parse(via, text) != 0;
  osip_via_free(via);
  osip_from_t *from;
  osip_from_init(&from);
  rc |= (osip_from_parse(from, text) != 0) << 1;
  osip_from_free(from);
  osip_content_type_t *type;
  osip_content_type_init(&type);
  rc |= (osip_content_type_parse(type, text) != 0) << 2;
  osip_content_type_free(type);
  return rc;
}
