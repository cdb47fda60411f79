"""Repository rule @local_cuda: finds the CUDA toolkit ($CUDA_HOME, else /usr/local/cuda).

Without a toolkit the repository still loads, so that everything outside native/
builds; native targets then fail with one message saying how to point to CUDA.
"""

def _cuda_configure_impl(rctx):
    home = rctx.os.environ.get("CUDA_HOME", "") or "/usr/local/cuda"
    nvcc = rctx.path(home + "/bin/nvcc")
    found = nvcc.exists
    if found:
        rctx.symlink(home + "/include", "include")
        rctx.file("BUILD", """
package(default_visibility = ["//visibility:public"])

cc_library(
    name = "cuda_headers",
    hdrs = glob(["include/**/*.h", "include/**/*.hpp"], exclude = ["include/cccl/**", "include/thrust/**", "include/cub/**", "include/cuda/**"]),
    includes = ["include"],
)

# Static runtime: carried binaries need no libcudart.so on the GPU host.
cc_library(
    name = "cudart",
    linkopts = ["-L{home}/lib64", "-lcudart_static", "-ldl", "-lrt", "-pthread"],
    deps = [":cuda_headers"],
)

# Device runtime for dynamic parallelism (relocatable device code).
cc_library(
    name = "cudadevrt",
    linkopts = ["-L{home}/lib64", "-lcudadevrt"],
    deps = [":cudart"],
)
""".format(home = home))
    else:
        rctx.file("BUILD", """
package(default_visibility = ["//visibility:public"])

genrule(
    name = "cuda_missing",
    outs = ["cuda_missing.h"],
    cmd = "echo 'ERROR: CUDA toolkit required: no nvcc at {home}/bin/nvcc. Install the CUDA toolkit or set CUDA_HOME=/path/to/cuda (then bazel sync --configure).' >&2; exit 1",
)

cc_library(name = "cuda_headers", hdrs = [":cuda_missing"])
cc_library(name = "cudart", deps = [":cuda_headers"])
cc_library(name = "cudadevrt", deps = [":cuda_headers"])
""".format(home = home))
    rctx.file("defs.bzl", "CUDA_FOUND = {}\nCUDA_HOME = \"{}\"\nNVCC = \"{}\"\n".format(
        found,
        home,
        str(nvcc),
    ))

cuda_configure = repository_rule(
    implementation = _cuda_configure_impl,
    environ = ["CUDA_HOME"],
    local = True,
    configure = True,
)
