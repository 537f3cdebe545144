// PersistentMap: an ordered map from 64-bit keys whose copies share structure.
//
// Copying is O(1): the copy shares every node. A change copies only the shared nodes on the
// path to the changed key (O(log n), expected), so a map copied at every fork costs in memory
// and time what the forked states change, not what they hold. Nodes owned by one map alone are
// changed in place.
//
// The tree is a treap whose priorities are a hash of the key: its shape depends on the keys
// only, never on the order of insertion or on a random source, so runs stay deterministic.
// Single-threaded, like the states that hold it: sharing is decided by reference counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace cairn::engine {

template <typename T>
class PersistentMap {
  struct Node;

public:
  using value_type = std::pair<uint64_t, T>;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // The entry with this key, or null.
  const value_type *find(uint64_t key) const {
    for (const Node *n = root_.get(); n;) {
      if (key == n->item.first)
        return &n->item;
      n = key < n->item.first ? n->left.get() : n->right.get();
    }
    return nullptr;
  }

  // The entry with the greatest key not above `key`, or null.
  const value_type *floor(uint64_t key) const {
    const value_type *best = nullptr;
    for (const Node *n = root_.get(); n;) {
      if (n->item.first <= key) {
        best = &n->item;
        n = n->right.get();
      } else {
        n = n->left.get();
      }
    }
    return best;
  }

  // The value with this key, owned by this map alone from now on (null when there is none).
  T *mutate(uint64_t key) { return find(key) ? &mutate(root_, key) : nullptr; }

  void insertOrAssign(uint64_t key, T value) { insert(root_, key, priorityOf(key), value); }

  bool erase(uint64_t key) {
    if (!find(key))
      return false;
    erase(root_, key);
    --size_;
    return true;
  }

  // In key order. An iterator holds its entry and the ancestors still to visit after it (the
  // ones whose left subtree it is in); a change to the map invalidates it.
  class const_iterator {
  public:
    const value_type &operator*() const { return path_.back()->item; }
    const value_type *operator->() const { return &path_.back()->item; }
    const_iterator &operator++() {
      const Node *n = path_.back();
      path_.pop_back();
      descendLeft(n->right.get());
      return *this;
    }
    bool operator==(const const_iterator &o) const { return path_ == o.path_; }

  private:
    friend class PersistentMap;
    void descendLeft(const Node *n) {
      for (; n; n = n->left.get())
        path_.push_back(n);
    }
    std::vector<const Node *> path_;
  };

  const_iterator begin() const {
    const_iterator it;
    it.descendLeft(root_.get());
    return it;
  }
  const_iterator end() const { return {}; }

private:
  using NodePtr = std::shared_ptr<Node>;
  struct Node {
    value_type item;
    uint64_t priority = 0;
    NodePtr left, right;
  };

  static uint64_t priorityOf(uint64_t key) { // splitmix64's finalizer
    key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9ull;
    key = (key ^ (key >> 27)) * 0x94d049bb133111ebull;
    return key ^ (key >> 31);
  }

  // The node behind `p`, copied first when another map shares it. Called from the root down,
  // so a node seen by one parent only is this map's alone.
  static Node &own(NodePtr &p) {
    if (p.use_count() > 1)
      p = std::make_shared<Node>(*p);
    return *p;
  }

  static T &mutate(NodePtr &t, uint64_t key) {
    Node &n = own(t);
    if (key == n.item.first)
      return n.item.second;
    return mutate(key < n.item.first ? n.left : n.right, key);
  }

  // Both `t` and the child that rises are owned when these run.
  static void rotateRight(NodePtr &t) {
    NodePtr l = std::move(t->left);
    t->left = std::move(l->right);
    l->right = std::move(t);
    t = std::move(l);
  }
  static void rotateLeft(NodePtr &t) {
    NodePtr r = std::move(t->right);
    t->right = std::move(r->left);
    r->left = std::move(t);
    t = std::move(r);
  }

  void insert(NodePtr &t, uint64_t key, uint64_t priority, T &value) {
    if (!t) {
      t = std::make_shared<Node>(Node{{key, std::move(value)}, priority, nullptr, nullptr});
      ++size_;
      return;
    }
    Node &n = own(t);
    if (key == n.item.first) {
      n.item.second = std::move(value);
    } else if (key < n.item.first) {
      insert(n.left, key, priority, value);
      if (n.left->priority > n.priority)
        rotateRight(t);
    } else {
      insert(n.right, key, priority, value);
      if (n.right->priority > n.priority)
        rotateLeft(t);
    }
  }

  static void erase(NodePtr &t, uint64_t key) {
    Node &n = own(t);
    if (key == n.item.first)
      t = merge(std::move(n.left), std::move(n.right));
    else
      erase(key < n.item.first ? n.left : n.right, key);
  }

  // Joins two treaps whose keys are all below (l) and all above (r) each other.
  static NodePtr merge(NodePtr l, NodePtr r) {
    if (!l)
      return r;
    if (!r)
      return l;
    if (l->priority > r->priority) {
      Node &n = own(l);
      n.right = merge(std::move(n.right), std::move(r));
      return l;
    }
    Node &n = own(r);
    n.left = merge(std::move(l), std::move(n.left));
    return r;
  }

  NodePtr root_;
  size_t size_ = 0;
};

} // namespace cairn::engine
