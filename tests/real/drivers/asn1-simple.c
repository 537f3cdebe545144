/* libtasn1: asn1_decode_simple_der and _ber on symbolic bytes, as an OCTET STRING. */
#include <libtasn1.h>
#include <stdlib.h>

#ifndef INPUT_SIZE
#define INPUT_SIZE 6
#endif
#include "driver.h"

int main(void) {
  unsigned char der[INPUT_SIZE];
  symbolic_input(der, sizeof der);
  const unsigned char *str;
  unsigned int length, used;
  int rc = asn1_decode_simple_der(ASN1_ETYPE_OCTET_STRING, der, sizeof der, &str, &length) != ASN1_SUCCESS;
  unsigned char *ber = NULL;
  rc |= (asn1_decode_simple_ber(ASN1_ETYPE_OCTET_STRING, der, sizeof der, &ber, &length, &used) != ASN1_SUCCESS) << 1;
  free(ber);
  return rc;
}
