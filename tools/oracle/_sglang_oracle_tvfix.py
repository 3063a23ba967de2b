"""Installed into the oracle virtualenv's site-packages, loaded by a .pth file.

torchvision from PyPI is built against CUDA; its _C.so does not load next to the CPU
torch, so its Python meta registrations for torchvision::nms / qnms fail with
"operator torchvision::nms does not exist" (and transformers then fails to import).
Before torchvision is first imported, define the two schemas with a torch.library
Library that stays referenced for the interpreter's life.  The hook is lazy: it does not
import torch until something imports torchvision, so pip and plain python stay fast.
"""

import sys

_LIB = None


class _TorchvisionSchemaFinder:
    def find_spec(self, fullname, path=None, target=None):
        if fullname != "torchvision":
            return None
        global _LIB
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass
        try:
            import torch

            lib = torch.library.Library("torchvision", "DEF")
            lib.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
            lib.define("qnms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
            _LIB = lib
        except Exception:  # already defined (a working torchvision) or no torch
            pass
        return None  # let the normal finders import torchvision


def install():
    if not any(isinstance(f, _TorchvisionSchemaFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _TorchvisionSchemaFinder())
