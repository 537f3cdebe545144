// Fig. 3.1 of the relocatable-model chapter: three hash tables of 300 buckets, five nodes each,
// and one lookup by a symbolic key. The lookup's pointers resolve to the first table's nodes.
#include "cairn.h"

#include <stdlib.h>
#include <string.h>

typedef struct node_s {
  unsigned long data;
  unsigned key;
  struct node_s *next;
} node_t;

typedef struct {
  node_t **buckets;
  size_t size;
} table_t;

static unsigned long hash(const void *p, size_t n) {
  const unsigned char *b = p;
  unsigned long h = 5381;
  for (size_t i = 0; i < n; i++)
    h = h * 33 + b[i];
  return h;
}

static void table_init(table_t *t, size_t n) {
  t->buckets = calloc(n, sizeof(node_t *));
  t->size = n;
}

static node_t *table_lookup(table_t *t, unsigned k) {
  unsigned long h = hash(&k, sizeof(k)) % t->size;
  node_t *node = t->buckets[h];
  while (node != NULL) {
    if (memcmp(&node->key, &k, sizeof(unsigned)) == 0)
      return node;
    node = node->next;
  }
  return NULL;
}

static void table_insert(table_t *t, unsigned k, int data) {
  if (table_lookup(t, k))
    return;
  unsigned long h = hash(&k, sizeof(k)) % t->size;
  node_t *node = calloc(1, sizeof(node_t));
  node->key = k;
  node->data = data;
  node->next = t->buckets[h];
  t->buckets[h] = node;
}

int main(void) {
  table_t tables[3];
  for (unsigned i = 0; i < 3; i++) {
    table_init(&tables[i], 300);
    for (unsigned j = 0; j < 5; j++)
      table_insert(&tables[i], j, 7);
  }
  unsigned k;
  klee_make_symbolic(&k, sizeof k, "k");
  return table_lookup(&tables[0], k) != NULL;
}
