/* libosip2: a symbolic URI parsed. */
#include <osipparser2/osip_parser.h>

#include "cairn.h"

#ifndef INPUT_SIZE
#define INPUT_SIZE 10
#endif

int main(void) {
  char text[INPUT_SIZE];
  klee_make_symbolic(text, sizeof text, "input");
  text[INPUT_SIZE - 1] = 0;
  parser_init();
  osip_uri_t *uri;
  osip_uri_init(&uri);
  int rc = osip_uri_parse(uri, text);
  osip_uri_free(uri);
  return rc == 0 ? 0 : 1;
}
