/* libosip2: a SIP URI and a Via header value of symbolic length n parsed (the paper's libosip
 * subject: its parsers scan with strchr, strncmp and osip_clrspace over the text). */
#include <osipparser2/osip_parser.h>

#include "driver.h"

int main(void) {
  char *text = symbolic_length_text();
  parser_init();
  osip_uri_t *uri;
  osip_uri_init(&uri);
  int rc = osip_uri_parse(uri, text) != 0;
  osip_uri_free(uri);
  osip_via_t *via;
  osip_via_init(&via);
  rc |= (osip_via_parse(via, text) != 0) << 1;
  osip_via_free(via);
  return rc;
}
