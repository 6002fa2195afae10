"""Writing new content over a locale file's old text, changing only what changed: an entry
whose content is the same keeps its lines byte for byte (a flow mapping, a message wrapped by
hand, the comments around it), a changed one is written anew in its own place, and a new one
goes after the entry before it. `ludex locale import` used to dump the whole file again: a
round trip with the same content gave a 23-line diff (flow mappings made blocks, messages
re-wrapped, comments lost; a designer's trial).

The patched text is read back and compared with the content it must hold; any file it cannot
patch so (a key written twice, one to remove, a text that does not read back the same) is
left to the caller to write whole.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from .errors import Collector
from .yamlio import load_bytes

WIDTH = 100  # where a dumped text is wrapped (an entry written anew, a whole file)


class LocaleDumper(yaml.SafeDumper):
    """Quotes strings that YAML 1.1 and 1.2 might read as numbers (hashes such as 06256821),
    which Ludex's loader refuses unquoted."""


def _string(dumper: yaml.SafeDumper, value: str):
    style = "'" if re.fullmatch(r"[-+0-9._:eExXoO]+", value) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


LocaleDumper.add_representer(str, _string)


def dump(data: Any, flow: bool = False, width: int = WIDTH) -> str:
    """`data` as YAML: in block style (wrapped at `width`), or on one line in flow style."""
    return yaml.dump(data, Dumper=LocaleDumper, allow_unicode=True, sort_keys=False,
                     default_flow_style=flow, width=2**31 if flow else width)


class _Unpatchable(Exception):
    """A change this module does not make in place: the file is written whole."""


def rewrite(text: str, old: Any, new: dict) -> str | None:
    """`text` (a locale file that reads as `old`) changed to hold `new`, every entry whose
    content is unchanged kept as written; None when it cannot be patched so."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        if not isinstance(root, yaml.MappingNode) or not isinstance(old, dict):
            return None
        patch = _Patch(text)
        patch.mapping(root, old, new)
    except (yaml.YAMLError, _Unpatchable):
        return None
    patched = patch.applied()
    check = load_bytes(patched.encode("utf-8"), "<patched>", Collector())
    return patched if check is not None and check.data == new else None


class _Patch:
    def __init__(self, text: str):
        self.text = text
        self.newline = "\r\n" if "\r\n" in text else "\n"
        self.edits: list[tuple[int, int, str]] = []  # (start, end, text), in order made

    def applied(self) -> str:
        out, at = [], 0
        # inserts at one place keep the order they were made in (sorted is stable)
        for start, end, new in sorted(self.edits, key=lambda edit: edit[0]):
            out.append(self.text[at:start])
            out.append(new)
            at = max(at, end)
        out.append(self.text[at:])
        return "".join(out)

    def mapping(self, node: yaml.MappingNode, old: dict, new: dict) -> None:
        written = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.value in written:
                raise _Unpatchable  # a key that is no plain text, or a key written twice
            written[key_node.value] = (key_node, value_node)
        if set(written) != {str(k) for k in old} or any(k not in new for k in old):
            raise _Unpatchable  # keys read otherwise than they are written, or one removed
        previous = None
        for key, value in new.items():
            if key in written:
                self.value(node, *written[key], old[key], value)
                previous = written[key]
            else:
                self.insert(node, previous, key, value)

    def value(self, parent: yaml.MappingNode, key: yaml.ScalarNode, node: yaml.Node, old: Any,
              new: Any) -> None:
        if old == new and type(old) is type(new):
            return
        if isinstance(node, yaml.MappingNode) and isinstance(old, dict) \
                and isinstance(new, dict):
            self.mapping(node, old, new)
            return
        start, end = node.start_mark.index, node.end_mark.index
        while end > start and self.text[end - 1] in " \t\r\n":  # a block text's last breaks
            end -= 1
        if parent.flow_style or isinstance(new, dict | list) \
                or not isinstance(node, yaml.ScalarNode):
            self.edits.append((start, end, _flow(new)))
        else:  # a text in a block mapping: wrapped as a whole file's dump wraps it
            self.edits.append((start, end, self._block_text(key, new)))

    def _block_text(self, key: yaml.ScalarNode, value: Any) -> str:
        """A text after its key in a block mapping, wrapped where a dump of the whole file
        would wrap it (a key as long as the one written stands in for it)."""
        indent = key.start_mark.column
        stand_in = "k" * (key.end_mark.index - key.start_mark.index)
        first, *rest = dump({stand_in: value}, width=WIDTH - indent).rstrip("\n").split("\n")
        return self.newline.join([first[len(stand_in) + 2:],
                                  *(" " * indent + line for line in rest)])

    def insert(self, node: yaml.MappingNode, previous: tuple | None, key: Any,
               value: Any) -> None:
        if node.flow_style:
            entry = f"{_flow(key)}: {_flow(value)}"
            if previous is not None:
                self.edits.append((previous[1].end_mark.index,) * 2 + (f", {entry}",))
            else:
                after_brace = node.start_mark.index + 1
                self.edits.append((after_brace, after_brace,
                                   entry + (", " if node.value else "")))
            return
        if not node.value:
            raise _Unpatchable  # an empty block mapping: nothing to go by
        indent = node.value[0][0].start_mark.column
        lines = dump({key: value}, width=WIDTH - indent).rstrip("\n").split("\n")
        entry = "".join(" " * indent + line + self.newline for line in lines)
        if previous is None:  # before the first entry, at the start of its line
            first = node.value[0][0].start_mark.index
            at = self.text.rfind("\n", 0, first) + 1
        else:
            at = self._entry_end(previous[1])
            if at == len(self.text) and not self.text.endswith("\n"):
                entry = self.newline + entry
        self.edits.append((at, at, entry))

    def _entry_end(self, node: yaml.Node) -> int:
        """Where the line after an entry's value begins (after its last line's comment)."""
        if isinstance(node, yaml.MappingNode | yaml.SequenceNode) and not node.flow_style \
                and node.value:
            last = node.value[-1]
            return self._entry_end(last[1] if isinstance(last, tuple) else last)
        end = node.end_mark.index
        while end > node.start_mark.index and self.text[end - 1] in " \t\r\n":
            end -= 1
        line_end = self.text.find("\n", end)
        return len(self.text) if line_end < 0 else line_end + 1


def replace_section(text: str, section: str, block: str) -> str:
    """`text` with its top-level `section` (from its key to the next line that starts at
    column 0) replaced by `block` in its place, the lines around it kept byte for byte;
    `block` added at the end when `text` has no such section; the section taken out when
    `block` is empty. For the sections a tool writes whole (`translated_from`)."""
    newline = "\r\n" if "\r\n" in text else "\n"
    block = block.replace("\n", newline)
    found = re.compile(rf"^{re.escape(section)}:.*?(?=^\S|\Z)", re.MULTILINE | re.DOTALL) \
        .search(text)
    if found is None:
        if not block:
            return text
        ending = "" if not text or text.endswith("\n") else newline
        return text + ending + block
    kept = found.group()
    # the blank lines between the section and the next one stay
    gap = kept[len(kept.rstrip("\r\n")):].removeprefix(newline) if block else ""
    return text[:found.start()] + block + gap + text[found.end():]


def _flow(value: Any) -> str:
    """`value` as it stands inside a flow mapping, on one line."""
    return dump([value], flow=True).strip()[1:-1]
