#!/usr/bin/env python3
"""Golden regression: runs the cases of tests/regression/cases.yaml and compares each output
file (stats.json unless a case says otherwise) with its reference, golden/<case>.json, field by
field with the tolerances of tolerances.yaml.

    tests/regression/regression.py [--wallsim build/wallsim] [--case GLOB]...     # check
    tests/regression/regression.py --update [--case GLOB]...                     # rewrite

A reference is the output file flattened to one field per line ("run.sim_time.value": 0.002),
sorted, so that `git diff` of an update shows exactly which figures moved. Exit codes: 0 all
cases match, 1 a case differs or its run failed, 2 bad input (a missing reference, a malformed
cases or tolerances file).
"""

import argparse
import fnmatch
import json
import math
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import wallsim_output as wo  # noqa: E402

CASES = os.path.join(HERE, "cases.yaml")
TOLERANCES = os.path.join(HERE, "tolerances.yaml")
GOLDEN = os.path.join(HERE, "golden")
MAX_SHOWN = 12  # differing fields printed per case


def load_yaml(path):
    yaml = wo.import_yaml()
    try:
        with open(path, encoding="utf-8") as f:
            return yaml.safe_load(f)
    except OSError as e:
        wo.die("%s: cannot read: %s" % (path, e.strerror or e))
    except yaml.YAMLError as e:
        wo.die("%s: not valid YAML: %s" % (path, e))


def load_cases():
    doc = load_yaml(CASES)
    cases = doc.get("cases") if isinstance(doc, dict) else None
    if not isinstance(cases, list) or not cases:
        wo.die("%s: expected a non-empty list under 'cases'" % CASES)
    names = set()
    for i, c in enumerate(cases):
        where = "%s: cases[%d]" % (CASES, i)
        if not isinstance(c, dict) or not isinstance(c.get("name"), str):
            wo.die("%s: expected a map with a name" % where)
        if not isinstance(c.get("args"), list) or not c["args"]:
            wo.die("%s (%s): expected 'args', the wallsim command line as a list" % (where, c["name"]))
        unknown = set(c) - {"name", "about", "args", "compare"}
        if unknown:
            wo.die("%s (%s): unknown key(s) %s; expected name, about, args, compare"
                   % (where, c["name"], ", ".join(sorted(unknown))))
        if c["name"] in names:
            wo.die("%s: case '%s' is listed twice" % (where, c["name"]))
        names.add(c["name"])
        c.setdefault("compare", "stats.json")
    return cases


class Tolerances:
    """The rules of tolerances.yaml: the first that matches a (case, field) decides."""

    def __init__(self, path=TOLERANCES):
        doc = load_yaml(path)
        if not isinstance(doc, dict) or not isinstance(doc.get("default"), dict):
            wo.die("%s: expected a 'default' map {rel, abs} and a 'rules' list" % path)
        self.default = self._rule(doc["default"], path, "default")
        self.rules = [self._rule(r, path, "rules[%d]" % i)
                      for i, r in enumerate(doc.get("rules") or [])]

    @staticmethod
    def _rule(r, path, where):
        if not isinstance(r, dict):
            wo.die("%s: %s: expected a map" % (path, where))
        unknown = set(r) - {"match", "cases", "ignore", "rel", "abs", "why"}
        if unknown:
            wo.die("%s: %s: unknown key(s) %s" % (path, where, ", ".join(sorted(unknown))))
        for k in ("rel", "abs"):
            v = r.get(k, 0.0)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                wo.die("%s: %s: %s must be a number >= 0" % (path, where, k))
        if where != "default" and not isinstance(r.get("match"), str):
            wo.die("%s: %s: expected 'match', a glob over field paths" % (path, where))
        return {"match": r.get("match", "*"), "cases": r.get("cases", "*"),
                "ignore": bool(r.get("ignore", False)),
                "rel": float(r.get("rel", 0.0)), "abs": float(r.get("abs", 0.0))}

    def rule(self, case, field):
        for r in self.rules:
            if fnmatch.fnmatchcase(field, r["match"]) and fnmatch.fnmatchcase(case, r["cases"]):
                return r
        return self.default


def flatten(node, prefix="", out=None):
    """{"a": {"b": [1, 2]}} -> {"a.b[0]": 1, "a.b[1]": 2}; empty maps and lists stay leaves."""
    out = {} if out is None else out
    if isinstance(node, dict) and node:
        for k, v in node.items():
            flatten(v, "%s.%s" % (prefix, k) if prefix else str(k), out)
    elif isinstance(node, list) and node:
        for i, v in enumerate(node):
            flatten(v, "%s[%d]" % (prefix, i), out)
    else:
        out[prefix] = node
    return out


def differs(old, new, rule):
    """None when new is within the rule of old, else a short description of the change."""
    num = (int, float)
    if (isinstance(old, num) and not isinstance(old, bool) and isinstance(new, num)
            and not isinstance(new, bool)):
        if old == new or (math.isnan(old) and math.isnan(new)):
            return None
        limit = max(rule["abs"], rule["rel"] * abs(old))
        if abs(new - old) <= limit:
            return None
        change = " (%+.3g%%)" % ((new - old) / abs(old) * 100) if old else ""
        return "%r -> %r%s, allowed %.3g" % (old, new, change, limit)
    return None if old == new else "%r -> %r" % (old, new)


def compare(case, new, golden, tolerances):
    """Lines describing every field of new that differs from golden beyond its tolerance."""
    problems = []
    for field in sorted(set(golden) | set(new)):
        rule = tolerances.rule(case, field)
        if rule["ignore"]:
            continue
        if field not in new:
            problems.append("%s: gone (was %r)" % (field, golden[field]))
        elif field not in golden:
            problems.append("%s: new field (%r)" % (field, new[field]))
        else:
            d = differs(golden[field], new[field], rule)
            if d:
                problems.append("%s: %s" % (field, d))
    return problems


def run_case(wallsim, case, scratch):
    """Runs the case; returns (flattened output, None) or (None, why it failed)."""
    out = os.path.join(scratch, case["name"])
    cmd = [str(a) for a in case["args"]] + ["--out", out]
    if cmd[0] == "run":
        cmd.append("--no-progress")
    try:
        wo.run_wallsim(wallsim, cmd, exit_on_error=False)
    except wo.WallsimOutputError as e:
        return None, "wallsim %s failed: %s" % (" ".join(cmd), e)
    try:
        return flatten(wo.load_json(os.path.join(out, case["compare"]), exit_on_error=False)), None
    except wo.WallsimOutputError as e:
        return None, str(e)


def golden_path(case, golden_dir=GOLDEN):
    return os.path.join(golden_dir, case["name"] + ".json")


def write_golden(case, flat, golden_dir):
    os.makedirs(golden_dir, exist_ok=True)
    path = golden_path(case, golden_dir)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(flat, f, indent=0, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wallsim", default=wo.default_wallsim(), help="the wallsim binary")
    ap.add_argument("--case", action="append", metavar="GLOB", help="only the matching cases")
    ap.add_argument("--update", action="store_true", help="rewrite the references instead")
    ap.add_argument("--golden", default=GOLDEN, metavar="DIR",
                    help="folder of the references (default: tests/regression/golden)")
    args = ap.parse_args(argv)
    golden_dir = os.path.abspath(args.golden)
    wallsim = os.path.abspath(args.wallsim) if os.sep in args.wallsim else args.wallsim
    os.chdir(ROOT)  # the cases name files relative to the repository root

    cases = load_cases()
    if args.case:
        cases = [c for c in cases if any(fnmatch.fnmatchcase(c["name"], g) for g in args.case)]
        if not cases:
            wo.die("no case matches %s" % ", ".join(args.case))
    tolerances = Tolerances()
    if not args.update:
        missing = [golden_path(c, golden_dir) for c in cases
                   if not os.path.isfile(golden_path(c, golden_dir))]
        if missing:
            wo.die("%s: no reference (create it with tools/update_golden)" % missing[0])

    scratch = tempfile.mkdtemp(prefix="wallsim-regression-")
    failed = 0
    try:
        for case in cases:
            start = time.monotonic()
            flat, error = run_case(wallsim, case, scratch)
            took = time.monotonic() - start
            if error:
                failed += 1
                print("FAIL %-22s %s" % (case["name"], error))
                continue
            if args.update:
                # Prose and versions are never compared, so they are not kept either.
                flat = {k: v for k, v in flat.items()
                        if not tolerances.rule(case["name"], k)["ignore"]}
                write_golden(case, flat, golden_dir)
                print("wrote %s (%d fields, %.1f s)" % (
                    os.path.relpath(golden_path(case, golden_dir), ROOT), len(flat), took))
                continue
            golden = wo.load_json(golden_path(case, golden_dir))
            problems = compare(case["name"], flat, golden, tolerances)
            if problems:
                failed += 1
                print("FAIL %-22s %d field(s) differ from %s:" % (
                    case["name"], len(problems),
                    os.path.relpath(golden_path(case, golden_dir), ROOT)))
                for p in problems[:MAX_SHOWN]:
                    print("       " + p)
                if len(problems) > MAX_SHOWN:
                    print("       ... and %d more" % (len(problems) - MAX_SHOWN))
            else:
                print("ok   %-22s %d fields (%.1f s)" % (case["name"], len(golden), took))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if failed and not args.update:
        print("%d of %d case(s) differ. If a model change explains it, run tools/update_golden "
              "and review the diff of tests/regression/golden/ in the commit." % (failed, len(cases)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
