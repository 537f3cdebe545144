/* libosip2: a symbolic URI parsed. */
#include <osipparser2/osip_parser.h>

#ifndef INPUT_SIZE
#define INPUT_SIZE 10
#endif
#include "driver.h"

int main(void) {
  char text[INPUT_SIZE];
  symbolic_text(text, sizeof text);
  parser_init();
  osip_uri_t *uri;
  osip_uri_init(&uri);
  int rc = osip_uri_parse(uri, text);
  osip_uri_free(uri);
  return rc == 0 ? 0 : 1;
}
