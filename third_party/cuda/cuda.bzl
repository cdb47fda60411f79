"""cuda_library: compiles .cu files with nvcc into a cc_library.

GPU architectures come from `--define=cuda_archs=sm_90[,sm_80,...]` (default
sm_90; sm_75 and newer with CUDA 13, which dropped sm_70). `rdc = True` builds
relocatable device code plus the device-link step that dynamic parallelism needs.
"""

load("@local_cuda//:defs.bzl", "CUDA_FOUND", "CUDA_HOME", "NVCC")

_DEFAULT_ARCHS = "sm_90"
_MISSING = ("CUDA toolkit required to build {target}: no nvcc at " + NVCC +
            ". Install the CUDA toolkit or set CUDA_HOME=/path/to/cuda " +
            "(then run `bazel sync --configure`).")

def _gencode_flags(ctx):
    flags = []
    for arch in ctx.var.get("cuda_archs", _DEFAULT_ARCHS).split(","):
        arch = arch.strip()
        if not arch.startswith("sm_") or not arch[3:].isdigit():
            fail("--define=cuda_archs: '{}' is not of the form sm_NN".format(arch))
        num = arch[3:]
        flags.append("-gencode=arch=compute_{n},code=[sm_{n},compute_{n}]".format(n = num))
    return flags

def _cuda_objects_impl(ctx):
    objs = []
    if not CUDA_FOUND:
        for src in ctx.files.srcs:
            obj = ctx.actions.declare_file("_cuda/{}/{}.o".format(ctx.label.name, src.basename))
            ctx.actions.run_shell(
                outputs = [obj],
                command = "echo 'ERROR: {}' >&2; exit 1".format(_MISSING.format(target = str(ctx.label))),
                mnemonic = "NvccMissing",
            )
            objs.append(obj)
        return [DefaultInfo(files = depset(objs))]

    cc = cc_common.merge_cc_infos(cc_infos = [d[CcInfo] for d in ctx.attr.deps]).compilation_context
    include_flags = ["-I."]
    for inc in cc.includes.to_list() + cc.quote_includes.to_list() + cc.system_includes.to_list():
        include_flags.append("-I" + inc)
    define_flags = ["-D" + d for d in cc.defines.to_list()]
    gencode = _gencode_flags(ctx)
    common = [
        "-std=c++20",
        "-O3",
        "-lineinfo",
        "-Xcompiler",
        "-fPIC",
        "--expt-relaxed-constexpr",
    ] + gencode + include_flags + define_flags + ctx.attr.copts
    if ctx.attr.rdc:
        common.append("-rdc=true")
    inputs = depset(ctx.files.srcs + ctx.files.hdrs, transitive = [cc.headers])
    for src in ctx.files.srcs:
        obj = ctx.actions.declare_file("_cuda/{}/{}.o".format(ctx.label.name, src.basename))
        ctx.actions.run(
            executable = NVCC,
            arguments = common + ["-c", src.path, "-o", obj.path],
            inputs = inputs,
            outputs = [obj],
            mnemonic = "Nvcc",
            progress_message = "nvcc {}".format(src.short_path),
            use_default_shell_env = True,
        )
        objs.append(obj)
    if ctx.attr.rdc:
        dlink = ctx.actions.declare_file("_cuda/{}/dlink.o".format(ctx.label.name))
        ctx.actions.run(
            executable = NVCC,
            arguments = ["-dlink", "-Xcompiler", "-fPIC"] + gencode +
                        [o.path for o in objs] +
                        ["-L" + CUDA_HOME + "/lib64", "-lcudadevrt", "-o", dlink.path],
            inputs = objs,
            outputs = [dlink],
            mnemonic = "NvccDlink",
            use_default_shell_env = True,
        )
        objs.append(dlink)
    return [DefaultInfo(files = depset(objs))]

_cuda_objects = rule(
    implementation = _cuda_objects_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = [".cu"]),
        "hdrs": attr.label_list(allow_files = [".h", ".cuh"]),
        "deps": attr.label_list(providers = [CcInfo]),
        "copts": attr.string_list(),
        "rdc": attr.bool(default = False),
    },
)

def cuda_library(name, srcs, hdrs = [], deps = [], copts = [], rdc = False, **kwargs):
    """A cc_library whose .cu sources are compiled by nvcc.

    Args:
      name: target name.
      srcs: .cu files.
      hdrs: headers (.h/.cuh) exported to dependents and visible to nvcc.
      deps: cc_library dependencies (their headers, includes and defines reach nvcc).
      copts: extra nvcc flags.
      rdc: relocatable device code + device link (needed for dynamic parallelism).
      **kwargs: passed to the cc_library (visibility, tags, ...).
    """
    _cuda_objects(
        name = name + "_objs",
        srcs = srcs,
        hdrs = hdrs,
        deps = deps + ["@local_cuda//:cuda_headers"],
        copts = copts,
        rdc = rdc,
        tags = kwargs.get("tags", []),
    )
    cuda_runtime = ["@local_cuda//:cudadevrt"] if rdc else ["@local_cuda//:cudart"]
    native.cc_library(
        name = name,
        srcs = [":" + name + "_objs"],
        hdrs = hdrs,
        deps = deps + cuda_runtime,
        alwayslink = True,
        **kwargs
    )
