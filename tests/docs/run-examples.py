#!/usr/bin/env python3
"""Runs the examples of Berth's documentation against a real berthd, so that the docs cannot drift.

    python3 run-examples.py --berthd /path/to/berthd --root /path/to/source-tree [--only docs/api.md] [--keep] [-v]

What it does (standard library only; needs bash, curl and jq, which the examples use):

1. Starts `berthd serve --listen 127.0.0.1:0` with a fresh temporary HOME (so ~/.local/share/berth and ~/.config
   are the test's own), reads the port from its banner ("Listening on 127.0.0.1:PORT"), and stops it by its
   process id at the end, also on failure.
2. For README.md and every docs/*.md, in that order: runs the lines of the ```sh blocks (never ```console or
   ```text) in one bash session per file, in a fresh temporary working directory, with the berthd folder first on
   the PATH. `:8080` (as in localhost:8080 and 127.0.0.1:8080) becomes the real port, in commands and samples;
   BERTH_URL starts as the test's server, standing in for the default http://localhost:8080, so that no example
   reaches another server on port 8080 (the examples set BERTH_URL and BERTH_API_KEY themselves as a reader would).
   Lines that do not talk to Berth and would change the machine or take minutes are skipped by SKIP_RULES.
3. Checks each block's answer against its sample: the next ```json or ```text block after it, before any other
   sh block. JSON: the answer parses and has the same keys (recursively in objects, first element of arrays;
   values may differ; a bare … or ... stands for anything). A sample starting with an HTTP status line: the
   status matches. Text: the first word of the first line matches; a sample with … or ... placeholders is
   matched line by line instead (whitespace collapsed, each placeholder matching anything), its lines appearing
   in the answer in that order. /home/<user> in a sample stands for the test's HOME.
   A non-zero exit status fails, unless the line runs curl or berthd and the sample is an error answer (a JSON
   object with "error", or text starting with "berthd:", which is then compared with standard error).
4. Checks that every relative link [x](path#anchor) in README.md, docs/*.md, CONTRIBUTING.md, SECURITY.md and
   tests/bench/README.md names an existing file, and that an anchor matches a heading there (GitHub's slugs).
5. An example that cannot run against a fresh berthd is in a ```console block, or has the line
   <!-- docs-test: skip (reason) --> right before its block; the reason must not be empty.
6. Prints per file the commands run and samples checked, names every failure, and exits with 1 on any failure,
   also when fewer than MIN_COMMANDS ran in all or a file with sh blocks ran none.
"""

import argparse
import ctypes
import glob
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse

MIN_COMMANDS = 20
COMMAND_TIMEOUT = 60  # seconds for one line of an example
START_TIMEOUT = 20  # seconds for berthd to print its banner
DOC_PORT = '8080'

# Lines that do not talk to Berth and would change the machine or take minutes: never run, counted as skipped.
# A script path counts anywhere in a line; a program name where a command starts (line start, after ; & | or $( ).
AT_COMMAND = r'(^|[;&|(]\s*)'
SKIP_RULES = [
    (r'packaging/setup\.sh\b', 'builds and installs'),
    (r'tests/(bench|fuzz|sanitize)/', 'takes minutes'),
    (AT_COMMAND + r'(cmake|ctest)\b', 'builds or runs the test suite'),
    (AT_COMMAND + r'sudo\b', 'needs root'),
    (AT_COMMAND + r'apt(-get)?\b', 'installs packages'),
    (AT_COMMAND + r'(systemctl|journalctl)\b', 'changes services'),
    (AT_COMMAND + r'git\s+clone\b', 'fetches a repository'),
]

SKIP_MARKER = re.compile(r'^\s*<!--\s*docs-test:\s*skip\s*\((?P<reason>.*)\)\s*-->\s*$')
ANY_MARKER = re.compile(r'^\s*<!--.*docs-test')
FENCE = re.compile(r'^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)')
PLACEHOLDER = re.compile(r'…|\.\.\.')
HTTP_STATUS = re.compile(r'^HTTP/[\d.]+\s+(\d{3})\b')
ANY = '\u0000any'  # what a bare … in a JSON sample becomes
TALKS_TO_BERTH = re.compile(r'(^|[\s|;&(])(curl|berthd)\s')  # may exit non-zero where the sample is an error


# ----------------------------------------------------------------------------------------------------------------
# Markdown

class Block:
    def __init__(self, lang, first_line, lines, skip_reason):
        self.lang = lang  # info string of the fence, lower case
        self.first_line = first_line  # 1-based line number of the block's first content line
        self.lines = lines
        self.skip_reason = skip_reason  # from <!-- docs-test: skip (reason) -->, or None


def parse_blocks(path, shown, failures):
    """The fenced blocks of a Markdown file, with the skip markers before them."""
    text = read_text(path)
    lines = text.split('\n')
    blocks = []
    pending_marker = None  # (line number, reason)
    i = 0
    while i < len(lines):
        line = lines[i]
        if ANY_MARKER.search(line):
            match = SKIP_MARKER.match(line)
            if not match:
                failures.add(shown, i + 1, line.strip(), 'malformed marker; write <!-- docs-test: skip (reason) -->')
            elif not match.group('reason').strip():
                failures.add(shown, i + 1, line.strip(), 'the skip marker gives no reason')
            else:
                pending_marker = (i + 1, match.group('reason').strip())
            i += 1
            continue
        fence = FENCE.match(line)
        if fence:
            marker = pending_marker
            pending_marker = None
            indent, mark = fence.group('indent'), fence.group('fence')
            start = i + 1
            content = []
            i += 1
            while i < len(lines):
                closing = lines[i].strip()
                if closing.startswith(mark) and set(closing) == {mark[0]}:
                    break
                content.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i].lstrip())
                i += 1
            else:
                failures.add(shown, start, line.strip(), 'fenced block is never closed')
            blocks.append(Block(fence.group('info').lower(), start + 1, content, marker[1] if marker else None))
            i += 1
            continue
        if pending_marker and line.strip():
            failures.add(shown, pending_marker[0], '<!-- docs-test: skip -->',
                         'the skip marker is not right before a fenced block')
            pending_marker = None
        i += 1
    if pending_marker:
        failures.add(shown, pending_marker[0], '<!-- docs-test: skip -->', 'the skip marker is before no block')
    return blocks


def commands_of(block):
    """The commands of an sh block: (line number, text), continuation lines and here-documents joined."""
    commands = []
    i = 0
    lines = block.lines
    while i < len(lines):
        line = lines[i]
        number = block.first_line + i
        i += 1
        if not line.strip() or line.lstrip().startswith('#'):
            continue
        text = line
        while text.endswith('\\') and i < len(lines):
            text += '\n' + lines[i]
            i += 1
        heredoc = re.search(r'(?<![<$(])<<-?(?!<)\s*([\'"]?)([A-Za-z_]\w*)\1', text)
        if heredoc:
            word = heredoc.group(2)
            while i < len(lines):
                text += '\n' + lines[i]
                i += 1
                if lines[i - 1].strip() == word:
                    break
        commands.append((number, text))
    return commands


def skip_rule(command):
    for pattern, why in SKIP_RULES:
        if re.search(pattern, command):
            return why
    return None


# ----------------------------------------------------------------------------------------------------------------
# Samples

def json_sample(text):
    """Parses a JSON sample in which a bare … or ... (outside strings) stands for anything."""
    out = []
    stack = []
    expecting_key = False
    i = 0
    while i < len(text):
        c = text[i]
        if c == '"':
            j = i + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            out.append(text[i:j + 1])
            i = j + 1
            expecting_key = False
            continue
        placeholder = PLACEHOLDER.match(text, i)
        if placeholder:
            if stack and stack[-1] == '{' and expecting_key:
                out.append(json.dumps(ANY) + ': null')  # "more keys may follow"
            else:
                out.append(json.dumps(ANY))
            i = placeholder.end()
            continue
        if c in '{[':
            stack.append(c)
            expecting_key = c == '{'
        elif c in '}]':
            stack.pop() if stack else None
        elif c == ',':
            expecting_key = bool(stack) and stack[-1] == '{'
        out.append(c)
        i += 1
    return json.loads(''.join(out))


def compare_keys(sample, answer, where, differences):
    if sample == ANY:
        return
    if isinstance(sample, dict):
        if not isinstance(answer, dict):
            differences.append(f'{where or "top level"}: the sample has an object, the answer {type_name(answer)}')
            return
        open_ended = ANY in sample
        keys = set(sample) - {ANY}
        missing = sorted(keys - set(answer))
        extra = sorted(set(answer) - keys)
        place = where or 'top level'
        if missing:
            differences.append(f'{place}: the sample has the key(s) {", ".join(missing)}, the answer not')
        if extra and not open_ended:
            differences.append(f'{place}: the answer has the key(s) {", ".join(extra)}, the sample not')
        for key in sorted(keys & set(answer)):
            compare_keys(sample[key], answer[key], f'{where}.{key}', differences)
    elif isinstance(sample, list):
        if not isinstance(answer, list):
            differences.append(f'{where or "top level"}: the sample has an array, the answer {type_name(answer)}')
            return
        if sample and sample[0] != ANY:
            if not answer:
                differences.append(f'{where or "top level"}: the sample shows an element, the answer\'s array is empty')
            else:
                compare_keys(sample[0], answer[0], f'{where}[0]', differences)


def type_name(value):
    return {dict: 'an object', list: 'an array', str: 'a string', bool: 'a boolean', type(None): 'null'}.get(
        type(value), 'a number')


def is_error_sample(sample):
    if sample is None:
        return False
    text = '\n'.join(sample.lines).strip()
    if sample.lang == 'json':
        try:
            value = json_sample(text)
        except ValueError:
            return False
        return isinstance(value, dict) and 'error' in value
    return text.startswith('berthd:') and not text.startswith('berthd: warning')


def check_sample(sample, stdout, stderr):
    """What differs between a sample and the answer, as a list of sentences (empty when they agree)."""
    text = '\n'.join(sample.lines).strip('\n')
    if sample.lang == 'json':
        try:
            expected = json_sample(text)
        except ValueError as error:
            return [f'the JSON sample does not parse: {error}']
        try:
            answer = json.loads(stdout)
        except ValueError as error:
            return [f'the answer is not JSON ({error}): {shorten(stdout)}']
        differences = []
        compare_keys(expected, answer, '', differences)
        return differences

    sample_lines = [line for line in text.split('\n') if line.strip()]
    if not sample_lines:
        return []
    answer_text = stderr if is_error_sample(sample) else stdout
    answer_lines = [line for line in answer_text.split('\n') if line.strip()]
    status = HTTP_STATUS.match(sample_lines[0].strip())
    if status:
        for line in answer_lines:
            got = HTTP_STATUS.match(line.strip())
            if got:
                if got.group(1) != status.group(1):
                    return [f'status {got.group(1)}, the sample shows {status.group(1)}']
                return []
        return [f'no HTTP status line in the answer: {shorten(answer_text)}']
    if PLACEHOLDER.search(text):
        position = 0
        for line in sample_lines:
            pattern = re.compile('.*'.join(re.escape(part) for part in PLACEHOLDER.split(collapse(line))))
            while position < len(answer_lines) and not pattern.fullmatch(collapse(answer_lines[position])):
                position += 1
            if position == len(answer_lines):
                return [f'no line of the answer (in order) matches the sample line {line.strip()!r}; '
                        f'the answer: {shorten(answer_text)}']
            position += 1
        return []
    expected_word = sample_lines[0].split()[0]
    if not answer_lines:
        return [f'the answer is empty; the sample starts with {expected_word!r}']
    word = answer_lines[0].split()[0]
    if word != expected_word:
        return [f'the answer starts with {word!r}, the sample with {expected_word!r}: {shorten(answer_text)}']
    return []


def check_kind(sample):
    text = '\n'.join(sample.lines).strip()
    if sample.lang == 'json':
        return 'JSON keys'
    if HTTP_STATUS.match(text):
        return 'HTTP status'
    return 'lines with placeholders' if PLACEHOLDER.search(text) else 'first word'


def collapse(line):
    return ' '.join(line.split())


def shorten(text, limit=400):
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + ' […]'


# ----------------------------------------------------------------------------------------------------------------
# Links

def github_slug(heading):
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)  # links keep their text
    text = re.sub(r'<[^>]+>', '', text).replace('`', '').replace('*', '')
    text = text.strip().lower()
    text = ''.join(c for c in text if c.isalnum() or c in ' -_')
    return text.replace(' ', '-')


def anchors_of(path):
    anchors = set()
    counts = {}
    in_fence = None
    for line in read_text(path).split('\n'):
        fence = FENCE.match(line)
        if fence:
            mark = fence.group('fence')
            if in_fence is None:
                in_fence = mark[0]
            elif line.strip() and set(line.strip()) == {in_fence}:
                in_fence = None
            continue
        if in_fence:
            continue
        heading = re.match(r'^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$', line)
        if heading:
            slug = github_slug(heading.group(1))
            n = counts.get(slug, 0)
            counts[slug] = n + 1
            anchors.add(slug if n == 0 else f'{slug}-{n}')
        for html in re.finditer(r'<a\s[^>]*(?:name|id)="([^"]+)"', line):
            anchors.add(html.group(1))
    return anchors


def check_links(root, files, failures):
    checked = 0
    anchor_cache = {}
    for path in files:
        in_fence = None
        for number, line in enumerate(read_text(path).split('\n'), 1):
            fence = FENCE.match(line)
            if fence:
                mark = fence.group('fence')
                if in_fence is None:
                    in_fence = mark[0]
                elif line.strip() and set(line.strip()) == {in_fence}:
                    in_fence = None
                continue
            if in_fence:
                continue
            prose = re.sub(r'(`+).*?\1', '', line)  # not in code spans
            targets = [m.group(1) for m in re.finditer(r'\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)', prose)]
            reference = re.match(r'^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)', prose)
            if reference:
                targets.append(reference.group(1))
            for target in targets:
                if re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I) or target.startswith('//'):
                    continue  # http:, https:, mailto:
                checked += 1
                file_part, _, anchor = target.partition('#')
                file_part = urllib.parse.unquote(file_part)
                destination = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                shown = os.path.relpath(path, root)
                if not os.path.exists(destination):
                    failures.add(shown, number, target, f'links to {os.path.relpath(destination, root)}, '
                                 'which does not exist')
                    continue
                if anchor and destination.endswith('.md'):
                    if destination not in anchor_cache:
                        anchor_cache[destination] = anchors_of(destination)
                    if urllib.parse.unquote(anchor).lower() not in anchor_cache[destination]:
                        failures.add(shown, number, target, f'no heading of {os.path.relpath(destination, root)} '
                                     f'has the anchor #{anchor}')
    return checked


# ----------------------------------------------------------------------------------------------------------------
# Processes

try:
    LIBC = ctypes.CDLL(None, use_errno=True)
except OSError:
    LIBC = None


def die_with_parent():
    """In a child, before exec: be sent SIGTERM when the test dies (a CTest timeout kills it hard). The test runs
    no threads, so this is safe between fork and exec."""
    if LIBC is not None:
        LIBC.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Server:
    def __init__(self, berthd, env, log_path):
        self.log = open(log_path, 'wb')
        self.process = subprocess.Popen(
            [berthd, 'serve', '--listen', '127.0.0.1:0', '--stop-timeout', '5'], env=env, cwd=env['HOME'],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log, preexec_fn=die_with_parent)
        self.port = None
        banner = b''
        deadline = time.monotonic() + START_TIMEOUT
        # The banner ends with "Press Ctrl+C to stop."; after it berthd prints nothing more on standard output
        # until it stops, so the pipe needs no reader afterwards.
        while b'Press Ctrl+C' not in banner and time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                break
            banner += chunk
        self.banner = banner.decode('utf-8', 'replace')
        match = re.search(r'Listening on 127\.0\.0\.1:(\d+)', self.banner)
        if not match or 'Press Ctrl+C' not in self.banner:
            self.stop()
            raise RuntimeError(f'berthd did not start (exit status {self.process.poll()}); it printed:\n'
                               f'{self.banner}{read_text(log_path)[-2000:]}')
        self.port = match.group(1)

    def stop(self):
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.process.stdout.close()
        self.log.close()


class Shell:
    """One bash session: every command runs in it, so variables, exports and the working directory carry over."""

    def __init__(self, env, cwd, scratch):
        self.scratch = scratch
        self.token = f'__docs_test_{os.getpid()}_{id(self)}__'
        self.process = subprocess.Popen(['bash', '--noprofile', '--norc'], env=env, cwd=cwd, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
                                        preexec_fn=die_with_parent)
        self.pending = b''

    def run(self, command, timeout=COMMAND_TIMEOUT):
        """Runs one command: (exit status or None on a timeout or a dead shell, stdout, stderr)."""
        out = os.path.join(self.scratch, 'out')
        err = os.path.join(self.scratch, 'err')
        script = (f'{{ {command}\n}} >{quote(out)} 2>{quote(err)} </dev/null\n'
                  f"printf '\\n%s %d\\n' {self.token} $?\n")
        try:
            self.process.stdin.write(script.encode())
            self.process.stdin.flush()
        except BrokenPipeError:
            return None, '', 'the bash session has ended'
        deadline = time.monotonic() + timeout
        status = None
        while status is None:
            match = re.search(re.escape(self.token).encode() + rb' (\d+)\n', self.pending)
            if match:
                status = int(match.group(1))
                self.pending = self.pending[match.end():]
                break
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                return None, read_text(out), read_text(err) + f'\n(no answer within {timeout} seconds)'
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    return None, read_text(out), read_text(err) + '\n(the bash session ended)'
                self.pending += chunk
        return status, read_text(out), read_text(err)

    def kill(self):
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)  # bash and whatever it started, by its group id
            except ProcessLookupError:
                pass
            self.process.wait()

    def close(self):
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
                self.process.wait(10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                pass
        self.kill()


def quote(path):
    return "'" + path.replace("'", "'\\''") + "'"


def read_text(path):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return f.read()
    except FileNotFoundError:
        return ''


# ----------------------------------------------------------------------------------------------------------------
# The run

class Failures:
    def __init__(self):
        self.items = []

    def add(self, file, line, command, what):
        self.items.append((file, line, command, what))
        print(f'FAIL {file}:{line}: {first_line(command)}\n     {indent(what, 5)}', flush=True)


def indent(text, width):
    return text.replace('\n', '\n' + ' ' * width)


def first_line(command):
    lines = command.strip().split('\n')
    text = lines[0] + (' …' if len(lines) > 1 else '')
    return text if len(text) <= 160 else text[:157] + '...'


def run_file(path, shown, env, work, port, failures, verbose):
    """Runs a file's sh blocks in one bash session: (commands run, skipped by rule, samples checked, failures,
    blocks with a runnable line)."""
    file_failures = len(failures.items)
    blocks = parse_blocks(path, shown, failures)
    sh_blocks = [b for b in blocks if b.lang == 'sh']
    if not sh_blocks:
        return 0, 0, 0, 0, 0
    cwd = tempfile.mkdtemp(prefix='cwd-', dir=work)
    scratch = tempfile.mkdtemp(prefix='answers-', dir=work)
    shell = Shell(env, cwd, scratch)
    ran = skipped = checked = runnable_blocks = 0

    def real(text):  # the documented port becomes the test server's
        return re.sub(r':' + DOC_PORT + r'\b', ':' + port, text)

    try:
        for index, block in enumerate(blocks):
            if block.lang != 'sh':
                continue
            if block.skip_reason:
                if verbose:
                    print(f'  skip {shown}:{block.first_line}: {block.skip_reason}')
                continue
            sample = None
            for later in blocks[index + 1:]:
                if later.lang == 'sh':
                    break
                if later.lang in ('json', 'text'):
                    sample = later
                    break
            expect_error = is_error_sample(sample)
            stdout, stderr = [], []
            block_ok = True
            block_skipped = False
            commands = commands_of(block)
            if any(not skip_rule(c) for _, c in commands):
                runnable_blocks += 1
            for number, command in commands:
                why = skip_rule(command)
                if why:
                    skipped += 1
                    block_skipped = True
                    if verbose:
                        print(f'  skip {shown}:{number}: {first_line(command)} ({why})')
                    continue
                command = real(command)
                syntax = subprocess.run(['bash', '-n', '-c', command], capture_output=True, text=True)
                if syntax.returncode != 0:
                    failures.add(shown, number, command, f'not valid bash: {syntax.stderr.strip()}')
                    block_ok = False
                    continue
                if verbose:
                    print(f'  run  {shown}:{number}: {first_line(command)}', flush=True)
                status, out, err = shell.run(command)
                ran += 1
                stdout.append(out)
                stderr.append(err)
                if status is None:
                    failures.add(shown, number, command, err.strip())
                    block_ok = False
                    shell.close()
                    shell = Shell(env, cwd, scratch)  # the rest of the file goes on in a new session
                elif status != 0 and not (expect_error and TALKS_TO_BERTH.search(command)):
                    failures.add(shown, number, command, f'exit status {status}; standard error: '
                                 f'{shorten(err) or "(empty)"}; standard output: {shorten(out) or "(empty)"}')
                    block_ok = False
            if sample is None or block_skipped or not block_ok or not any(not skip_rule(c) for _, c in commands):
                continue
            sample_text = real('\n'.join(sample.lines))
            sample_text = re.sub(r'/home/[A-Za-z0-9_.-]+(?=/)', env['HOME'], sample_text)
            resolved = Block(sample.lang, sample.first_line, sample_text.split('\n'), None)
            checked += 1
            differences = check_sample(resolved, ''.join(stdout), ''.join(stderr))
            if verbose:
                compared = ''.join(stderr if sample.lang == 'text' and expect_error else stdout)
                print(f'  {"diff" if differences else "ok"}   {shown}:{sample.first_line}: sample '
                      f'({check_kind(resolved)}) against {shorten(compared, 200)!r}')
            if differences:
                last_number, last_command = [c for c in commands if not skip_rule(c[1])][-1]
                failures.add(shown, last_number, real(last_command),
                             f'the answer differs from the sample at {shown}:{sample.first_line}: '
                             + '; '.join(differences))
    finally:
        shell.close()
    if ran == 0:
        failures.add(shown, sh_blocks[0].first_line - 1, '(whole file)',
                     'the file has sh blocks but none of their commands ran')
    return ran, skipped, checked, len(failures.items) - file_failures, runnable_blocks


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--berthd', required=True, help='the berthd binary to serve and to put first on the PATH')
    parser.add_argument('--root', required=True, help='the source tree holding README.md and docs/')
    parser.add_argument('--only', action='append', default=[], help='run only this file (repeatable; for '
                        'debugging: the minimum number of commands is then not enforced)')
    parser.add_argument('--keep', action='store_true', help='keep the temporary HOME and working folders')
    parser.add_argument('-v', '--verbose', action='store_true', help='print every command as it runs')
    args = parser.parse_args()

    root = os.path.abspath(args.root)
    berthd = os.path.abspath(args.berthd)
    for tool in ('bash', 'curl', 'jq'):
        if not shutil.which(tool):
            print(f'FAIL: {tool} is not installed; the examples need it')
            return 1
    if not os.access(berthd, os.X_OK):
        print(f'FAIL: {berthd} is not an executable berthd')
        return 1

    run_files = [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md')))
    if args.only:
        wanted = {os.path.normpath(os.path.join(root, f)) for f in args.only}
        run_files = [f for f in run_files if os.path.normpath(f) in wanted]
    link_files = [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md'))) + [
        os.path.join(root, f) for f in ('CONTRIBUTING.md', 'SECURITY.md', 'tests/bench/README.md')]

    work = tempfile.mkdtemp(prefix='berth-docs-test-')
    home = os.path.join(work, 'home')
    os.mkdir(home)
    env = {k: v for k, v in os.environ.items()
           if not k.upper().startswith('BERTH') and k not in (
               'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'CDPATH', 'BASH_ENV', 'ENV')}
    env.update(HOME=home, LC_ALL='C.UTF-8', PATH=os.path.dirname(berthd) + os.pathsep + os.environ.get('PATH', ''))

    failures = Failures()
    server = None
    totals = [0, 0, 0]
    previous_term = signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # so that `finally` stops berthd
    try:
        links = check_links(root, [f for f in link_files if os.path.exists(f)], failures)
        for missing in (f for f in link_files if not os.path.exists(f)):
            failures.add(os.path.relpath(missing, root), 0, '(file)', 'the file is missing')
        print(f'links: {links} relative links checked', flush=True)

        server = Server(berthd, env, os.path.join(work, 'berthd.log'))
        env['BERTH_URL'] = f'http://localhost:{server.port}'
        print(f'berthd {server.process.pid} serves on 127.0.0.1:{server.port} with HOME={home}', flush=True)
        for path in run_files:
            shown = os.path.relpath(path, root)
            ran, skipped, checked, failed, blocks = run_file(path, shown, env, work, server.port, failures,
                                                             args.verbose)
            if blocks or skipped:
                print(f'{shown}: {ran} commands run, {skipped} skipped by rule, {checked} samples checked'
                      + (f', {failed} failures' if failed else ''), flush=True)
            else:
                print(f'{shown}: no sh blocks', flush=True)
            totals[0] += ran
            totals[1] += skipped
            totals[2] += checked
        if server.process.poll() is not None:
            failures.add('berthd', 0, 'serve', f'berthd exited during the run with status {server.process.poll()}')
    except RuntimeError as error:
        failures.add('berthd', 0, 'serve', str(error))
    finally:
        if server:
            server.stop()
        signal.signal(signal.SIGTERM, previous_term)
        if failures.items and server:
            log = read_text(os.path.join(work, 'berthd.log')).strip()
            if log:
                print('berthd log (last lines):\n' + '\n'.join(log.split('\n')[-15:]))
        if args.keep:
            print(f'kept {work}')
        else:
            shutil.rmtree(work, ignore_errors=True)

    if not args.only and totals[0] < MIN_COMMANDS:
        failures.add('(all)', 0, '(self-check)', f'only {totals[0]} commands ran, fewer than {MIN_COMMANDS}: '
                     'the test would pass without testing')
    print(f'total: {totals[0]} commands run, {totals[1]} skipped by rule, {totals[2]} samples checked, '
          f'{len(failures.items)} failures')
    if failures.items:
        print('\nFailures:')
        for file, line, command, what in failures.items:
            print(f'  {file}:{line}: {first_line(command)}\n      {indent(what, 6)}')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
