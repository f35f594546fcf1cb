"""The build step pyproject.toml cannot say: generate the gRPC modules from the API's schema
(../../api/proto/telestation/v1/station.proto, or $TELESTATION_PROTO_DIR/telestation/v1/station.proto)
into telestation_client/_generated/, and build the optional C decoder (_wire.c; without a C compiler
the package decodes with protobuf, slower).

The generator: grpc_tools.protoc when the grpcio-tools package is installed, else protoc with
grpc_python_plugin (Debian: protobuf-compiler, protobuf-compiler-grpc)."""
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_py import build_py
from setuptools.command.egg_info import egg_info

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, "telestation_client")
GENERATED = os.path.join(PACKAGE, "_generated")
PROTO = os.path.join("telestation", "v1", "station.proto")


def proto_root():
    for root in (os.environ.get("TELESTATION_PROTO_DIR"), os.path.join(HERE, "..", "..", "api", "proto")):
        if root and os.path.exists(os.path.join(root, PROTO)):
            return os.path.abspath(root)
    return None


def generator():
    try:
        import grpc_tools  # noqa: F401

        return [sys.executable, "-m", "grpc_tools.protoc"]
    except ImportError:
        pass
    protoc = shutil.which("protoc")
    plugin = shutil.which("grpc_python_plugin")
    if not protoc or not plugin:
        raise SystemExit("telestation-client: need grpcio-tools, or protoc and grpc_python_plugin "
                         "(Debian: protobuf-compiler protobuf-compiler-grpc) to compile " + PROTO)
    return [protoc, f"--plugin=protoc-gen-grpc_python={plugin}"]


def generate():
    root = proto_root()
    out = os.path.join(GENERATED, "telestation", "v1")
    if root is None:
        if os.path.exists(os.path.join(out, "station_pb2.py")):
            return  # an unpacked source distribution: generated already
        raise SystemExit(f"telestation-client: {PROTO} not found (set TELESTATION_PROTO_DIR)")
    os.makedirs(out, exist_ok=True)
    subprocess.run(generator() + [f"--proto_path={root}", f"--python_out={GENERATED}",
                                  f"--grpc_python_out={GENERATED}", os.path.join(root, PROTO)], check=True)
    for folder in (GENERATED, os.path.join(GENERATED, "telestation"), out):
        open(os.path.join(folder, "__init__.py"), "w").close()
    # The gRPC module imports its messages as a top-level package (telestation.v1); inside ours: relative.
    grpc_module = os.path.join(out, "station_pb2_grpc.py")
    with open(grpc_module) as f:
        text = f.read()
    text = re.sub(r"^from telestation\.v1 import station_pb2", "from . import station_pb2", text, flags=re.M)
    with open(grpc_module, "w") as f:
        f.write(text)


# Metadata (egg_info, which lists the packages' files) comes before the build: both generate.
class BuildPy(build_py):
    def run(self):
        generate()
        super().run()


class EggInfo(egg_info):
    def run(self):
        generate()
        super().run()


setup(
    packages=["telestation_client", "telestation_client._generated", "telestation_client._generated.telestation",
              "telestation_client._generated.telestation.v1"],
    package_data={"telestation_client": ["py.typed"]},
    # A plain C library loaded with ctypes (no Python headers needed); optional: a failed build only warns.
    ext_modules=[Extension("telestation_client._wire_c", ["telestation_client/_wire.c"], optional=True,
                           extra_compile_args=["-O2", "-std=c99"])],
    cmdclass={"build_py": BuildPy, "egg_info": EggInfo},
)
