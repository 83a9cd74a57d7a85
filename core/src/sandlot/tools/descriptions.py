"""What each tool tells the model. Written for the model: when to use the tool, what comes back,
and what to do when the output was cut. No numbers, since the limits are configurable."""

BASH = """\
Run a shell command in the sandbox and return its output (stdout, then stderr).
The shell keeps its state between calls: the working directory and exported variables persist.
Notices at the end report a non-zero exit code, a timeout or an action the sandbox's policy blocked.
Long output is cut in the middle, keeping its start and its end, with a notice saying how much was \
left out; redirect big output to a file and use grep or read_file on it instead.
Prefer the ls, glob, grep, read_file, write_file and str_replace tools for files: they are faster \
and their output is easier to work with."""

LS = """\
List a directory: one entry a line, directories with a trailing '/', files with their size.
Hidden entries (names starting with '.') are included. A very long listing is cut with a notice; \
use glob to find specific files in big directories."""

GLOB = """\
Find files and directories by name pattern, below a directory. Returns absolute paths, sorted.
'*' matches within one name, '**' any number of directories, '?' one character, '[abc]' one of \
the characters, '{a,b}' either alternative: '**/*.py' finds every Python file, 'src/*.{js,ts}' \
the scripts directly in src. Hidden entries (names starting with '.') are skipped unless the \
pattern names them ('.github/**'). If there are too many matches only the first are shown, \
with a notice giving the total."""

GREP = """\
Search file contents for lines containing a text (or matching an extended regular expression \
with regex=true), in one file or every text file below a directory. Binary files and hidden \
entries are skipped. Each match is one line 'path:line_number:line'.
Use glob to restrict the search to some files ('*.py'). If there are too many matches only the \
first are shown, with a notice; then narrow the pattern, the path or the glob."""

READ_FILE = """\
Read a text file. Lines come numbered like `cat -n`: the line number (counting from 1), a tab, \
then the line; the numbers are not part of the file.
By default reads from the first line up to a line limit; use offset (the first line to show, \
counting from 1) and limit (how many lines) to read a part of a big file. A notice at the end \
says when there is more and which offset to pass to continue. Very long lines are cut with a marker.
Binary files are refused; use bash to inspect them."""

WRITE_FILE = """\
Create a file, or replace its whole content, with the given text. Missing parent directories \
are created. To change part of an existing file, use str_replace instead."""

STR_REPLACE = """\
Edit a file by replacing an exact piece of text with new text.
old must match the file exactly, whitespace and indentation included (copy it from read_file \
output without the line-number prefix), and must occur exactly once: include enough surrounding \
lines to make it unique, or set replace_all=true to replace every occurrence. Returns how many \
occurrences were replaced."""
