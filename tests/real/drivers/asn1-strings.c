/* libtasn1: octet strings, bit strings and object identifiers decoded from symbolic DER. */
#include <libtasn1.h>

#ifndef INPUT_SIZE
#define INPUT_SIZE 6
#endif
#include "driver.h"

int main(void) {
  unsigned char der[INPUT_SIZE];
  symbolic_input(der, sizeof der);
  unsigned char out[16];
  char oid[64];
  int used, length, rc = 0;
  rc |= asn1_get_octet_der(der, sizeof der, &used, out, sizeof out, &length) != ASN1_SUCCESS;
  rc |= (asn1_get_bit_der(der, sizeof der, &used, out, sizeof out, &length) != ASN1_SUCCESS) << 1;
  rc |= (asn1_get_object_id_der(der, sizeof der, &used, oid, sizeof oid) != ASN1_SUCCESS) << 2;
  return rc;
}
