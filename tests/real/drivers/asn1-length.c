/* libtasn1: the DER length and tag decoders on symbolic bytes. */
#include <libtasn1.h>

#include "cairn.h"

#ifndef INPUT_SIZE
#define INPUT_SIZE 6
#endif

int main(void) {
  unsigned char der[INPUT_SIZE];
  klee_make_symbolic(der, sizeof der, "input");
  int used = 0;
  long length = asn1_get_length_der(der, sizeof der, &used);
  unsigned char cls;
  unsigned long tag;
  int tagLength;
  int rc = asn1_get_tag_der(der, sizeof der, &cls, &tagLength, &tag);
  return (length < 0) | ((rc != ASN1_SUCCESS) << 1);
}
