"""The targets Package.swift declares, read with a few regular expressions (the manifest
is plain enough; no `swift package dump-package`, which needs a build of the manifest).
Shared by scripts/check-imports and scripts/module-graph."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TARGET_KINDS = ("target", "executableTarget", "testTarget", "systemLibrary")
_START = re.compile(r'\.(%s)\(\s*name:\s*"(\w+)"' % "|".join(TARGET_KINDS))
_NEXT = re.compile(r'\n\s*\.(?:%s)\(' % "|".join(TARGET_KINDS))
_PRODUCT = re.compile(r'\.product\(\s*name:\s*"(\w+)"\s*,\s*package:\s*"([\w-]+)"\s*\)')


class Target:
    """One target: its kind (`target`, `testTarget`, …), its source directory, the names
    it depends on in the order Package.swift lists them (modules of this package and
    products of others alike), which of those are products (name -> package), and, for a
    system library, its pkg-config name."""

    def __init__(self, name, kind, directory, dependencies, products, pkg_config):
        self.name = name
        self.kind = kind
        self.directory = directory
        self.dependencies = dependencies
        self.products = products
        self.pkg_config = pkg_config

    @property
    def is_test(self):
        return self.kind == "testTarget"

    @property
    def is_system_library(self):
        return self.kind == "systemLibrary"


def targets(root=ROOT):
    """target name -> Target, in the order Package.swift declares them."""
    text = open(os.path.join(root, "Package.swift")).read()
    found = {}
    for match in _START.finditer(text):
        kind, name = match.groups()
        # The declaration runs to the next target (or the end of the list).
        following = _NEXT.search(text[match.end():])
        body = text[match.end(): match.end() + following.start() if following else len(text)]
        dependencies, products = [], {}
        listed = re.search(r'dependencies:\s*\[(.*?)\]\s*[,)]', body, re.S)
        if listed:
            for product in _PRODUCT.finditer(listed.group(1)):
                products[product.group(1)] = product.group(2)
            for dep in re.finditer(r'\.product\([^)]*\)|"(\w+)"', listed.group(1)):
                if dep.group(1):
                    dependencies.append(dep.group(1))
                else:
                    dependencies.append(_PRODUCT.match(dep.group(0)).group(1))
        pkg_config = re.search(r'pkgConfig:\s*"([\w.+-]+)"', body)
        folder = "Tests" if kind == "testTarget" else "Sources"
        found[name] = Target(name, kind, os.path.join(root, folder, name), dependencies, products,
                             pkg_config.group(1) if pkg_config else None)
    return found
