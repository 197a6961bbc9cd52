/* The cell set-up step the two Botan C++ files (ops_botan.cpp, ops_botan_pk.cpp) share: run the
 * cell's prepare (outside the timed region), turning Botan's exceptions into the one-line
 * message. Internal to the C driver family. */
#ifndef CB_OPS_BOTAN_SETUP_H
#define CB_OPS_BOTAN_SETUP_H

#include <cryptobench/kit.h>

#include <cstddef>
#include <exception>

/* c after prepare() (0, or -1 with err set; may throw) succeeded; else nullptr, c deleted and err
 * set ("<name> set-up: <what>" for an exception). */
template <class Cell, class Prepare>
Cell *botan_set_up(Cell *c, const char *name, char *err, size_t errlen, Prepare prepare) {
  try {
    if (prepare() == 0)
      return c;
  } catch (const std::exception &e) {
    cb_kit_err(err, errlen, "%s set-up: %s", name, e.what());
  }
  delete c;
  return nullptr;
}

#endif
