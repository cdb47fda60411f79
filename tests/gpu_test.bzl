"""gpu_test: a test that runs a native program on a GPU.

Tagged "gpu" (and "mpi" when it needs mpirun) so that CI, which has neither,
skips it visibly; "exclusive" because the programs time the GPU.
On a GPU machine: bazel test --test_tag_filters=gpu //tests/...
"""

def gpu_test(name, program, size = "medium", script = "gpu_program_test.sh", args = [], env = None, mpi = False):
    """An sh_test running `script` with `program`'s path and then `args`.

    Args:
      name: the test's name.
      program: the native program's label, given to the script as its first argument.
      size: the test's size.
      script: the test script (default: gpu_program_test.sh, which runs the program and checks its exit).
      args: further arguments after the program's path.
      env: environment of the test (e.g. {"MPI_RANKS": "2"}).
      mpi: whether the program needs mpirun (adds the tag "mpi").
    """
    native.sh_test(
        name = name,
        size = size,
        srcs = [script],
        args = ["$(location %s)" % program] + args,
        data = [program],
        env = env,
        tags = ["exclusive", "gpu"] + (["mpi"] if mpi else []),
    )
