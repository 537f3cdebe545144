/* libtasn1: the DER length and tag decoders on symbolic bytes. */
#include <libtasn1.h>

#ifndef INPUT_SIZE
#define INPUT_SIZE 6
#endif
#include "driver.h"

int main(void) {
  unsigned char der[INPUT_SIZE];
  symbolic_input(der, sizeof der);
  int used = 0;
  long length = asn1_get_length_der(der, sizeof der, &used);
  unsigned char cls;
  unsigned long tag;
  int tagLength;
  int rc = asn1_get_tag_der(der, sizeof der, &cls, &tagLength, &tag);
  return (length < 0) | ((rc != ASN1_SUCCESS) << 1);
}
