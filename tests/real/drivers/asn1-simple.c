/* libtasn1: asn1_decode_simple_der and _ber on symbolic bytes, as an OCTET STRING. */
#include <libtasn1.h>
#include <stdlib.h>

#include "cairn.h"

#ifndef INPUT_SIZE
#define INPUT_SIZE 6
#endif

int main(void) {
  unsigned char der[INPUT_SIZE];
  klee_make_symbolic(der, sizeof der, "input");
  const unsigned char *str;
  unsigned int length, used;
  int rc = asn1_decode_simple_der(ASN1_ETYPE_OCTET_STRING, der, sizeof der, &str, &length) != ASN1_SUCCESS;
  unsigned char *ber = NULL;
  rc |= (asn1_decode_simple_ber(ASN1_ETYPE_OCTET_STRING, der, sizeof der, &ber, &length, &used) != ASN1_SUCCESS) << 1;
  free(ber);
  return rc;
}
