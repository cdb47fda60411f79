// native/halo/halo_main.cc — `halo_exchange`: the host-driven and notification
// variants (baseline, stream, stacked). See docs/halo.md.
#include "native/halo/halo_context.h"

int main(int argc, char** argv) {
  return xferlab::halo::halo_main(argc, argv, "halo_exchange", {});
}
