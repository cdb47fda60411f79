// native/gdasync/gdasync_main.cc — `gdasync_bench`: the halo exchange program
// with the GPUDirect Async variants (host, sa, ki) added to baseline / stream /
// stacked. --pattern 7 --vars 1 with small --per-rank boxes is the HPGMG-like
// boundary exchange. See docs/halo.md.
#include "native/gdasync/gdasync_variants.h"

int main(int argc, char** argv) {
  return xferlab::halo::halo_main(argc, argv, "gdasync_bench",
                                  xferlab::gdasync::gdasync_variants());
}
