"""SLM005 no-launch-found: the file names SGLang's launcher but no launch could be read."""

from __future__ import annotations

from speclint.core.findings import Severity
from speclint.rules.base import NO_FIX, Example, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from speclint.core.findings import Finding
    from speclint.rules.base import FileContext


class NoLaunchFound(Rule):
    """## What it does
    Reports a file that names `sglang.launch_server`, `sglang serve`, `sgl.Engine`, calls
    `sgl.Runtime(...)` or `HttpServerEngineAdapter(...)`, names one of SGLang's launch helpers
    (`popen_launch_server`, `prepare_server_args`, `launch_server_cmd`) or
    `ServerArgs.from_cli_args`, SGLang's test server fixtures (`sglang.test.server_fixtures`: their
    base classes start the server from a subclass's attributes; a subclass of a base that a
    release speclint read ships is read as a launch, one of any other base is not), or sets the speculative
    algorithm in any of SGLang's spellings (`--speculative-algorithm`, a `--config` file's
    `speculative-algorithm:` key, the `speculative_algorithm` field), outside comments, in
    which speclint found no launch: once per file, at the first mention, with the reason when
    the front-end knows it. The co-launcher of SGLang's router package (`python -m
    sglang_router.launch_server`: SGLang workers and the router) is a launch, read like
    `sglang.launch_server` with the router's `--router-*` options added; a file that names it
    and yields no launch is reported as for `sglang.launch_server`. `python -m
    sglang_router.launch_router` starts only the router, no server: it is not a launch, and a
    file naming it is reported only for what else it names. SGLang's benchmark scripts that
    start an engine or a server from its flags (`python -m sglang.bench_one_batch`,
    `sglang.bench_offline_throughput`, `sglang.bench_one_batch_server`, their
    `sglang.benchmark.*` homes) are launches too, with the script's own options added;
    `sglang.bench_serving` only sends requests and is not. A shell command that runs a
    launcher's own words (`python3 -m sglang.launch_server`, `sglang serve`, written as
    separate words) through a command speclint does not read (`watch`, a function it does
    not follow; `xargs` and GNU `parallel` are read, a launch per input value) is reported at those words whatever else the file
    launches; the launcher named inside one quoted word (`pkill -f "sglang.launch_server"`) or
    printed (`echo`, `grep`) is not a launch. So is a here-document holding a launcher
    command that speclint does not read as a script (`docker exec -i c bash << EOF`, `cat >
    run.sh << EOF`; one that `cat` only prints is text). So is a Dockerfile of SGLang's image
    whose `CMD`/`ENTRYPOINT` runs a script copied from the build context (`COPY start.sh
    /start.sh`) that is not on disk next to it, and any Dockerfile running a copied file that
    names the launcher but is not a shell script (speclint reads a copied script as shell
    only). A Makefile function call that
    names the launcher (`$(foreach p,$(PORTS),python -m sglang.launch_server ... &)`, or one of
    SGLang's benchmark scripts), or a `$(call NAME,...)` of a `define` value that names it,
    which speclint does not evaluate, is reported at the call; so is an `include` whose file
    runs the launcher in a recipe (speclint reads an included makefile's variables, not its
    recipes). In YAML, a `--speculative-*` flag of
    SGLang outside every launch read there (a Helm chart's values file: an `extraArgs:` or
    `args:` list that the chart's template splices into the command) is reported at the first
    such flag, whatever else the file launches; where a template of the chart (beside its
    `Chart.yaml`) writes that list into its launch with `range` or `toYaml`, speclint reads the
    template with the chart's values and checks the flags there, and the note names that
    template instead of saying the flags were not checked. In a Markdown or reStructuredText
    page, each code block (or a code span alone on its paragraph's last line) that holds only
    flags of SGLang's server, without the command (an issue's "decode node:" flags, a review's
    diff of flag lines), and that no launch of the page read, is reported at the block's first
    flag, on a page with launches too; not where one flag is an option of no SGLang release, or
    the block or the lines just above it name another engine (vLLM, TGI). A shell block (a
    notebook's `!` line or `%%bash` cell) whose command is not SGLang's launcher but passes a
    `--speculative-*` option spelled as an SGLang release spells it (`python -m my_wrapper
    --speculative-algorithm EAGLE3`) is reported at that flag, also on a page that never names
    SGLang; past 50 such findings on one page, the last one says so. In a shell script, a
    launch built by `printf` with directives speclint does not print (`%x`, `%5s`) and run by
    `eval "$CMD"` or `bash -c "$CMD"` is reported at `$CMD`, whatever else the file launches.
    The same holds for a command of a shell script (`./scripts/serve.sh --speculative-algorithm
    EAGLE3`, beside launches read too; not `echo`, `grep`, `set --`, nor the rest of a launch
    that a missing `\\` cut off), a command run from Python (`subprocess.run(["python", "serve.py",
    "--speculative-algorithm", "EAGLE3"])`, `os.system(...)`), a Makefile, justfile, Procfile,
    unit or task file recipe, or a Dockerfile's `CMD` that is not SGLang's launcher but passes an
    SGLang `--speculative-*` option: reported at the first such flag, in files that never name
    SGLang too (never where the command names another engine). Ray Serve's SGLang app builder
    (`build_sglang_openai_app`) and a Serve app's `import_path:` in a file naming SGLang (a
    RayService on SGLang's image) are reported at the name; flags in a Kustomize patch are
    reported as a patch speclint does not apply. In
    Python, server settings built from what the file does not hold are reported at the call,
    whatever else the file launches: `ServerArgs.from_cli_args(args)` (the program's own
    command line) and `prepare_server_args(sys.argv[1:])`. In a doc, a `yaml` or
    `dockerfile` block naming the launcher only as list items that yields no launch is
    reported at the name. In a `pixi.toml`, a `pyproject.toml`
    or a VS Code `tasks.json`, a string that runs the launcher (`-m sglang.launch_server`,
    `sglang serve`) outside the tasks speclint reads (a poe `expr`, a PDM `call`, a task's
    `windows` command) is reported at the string, whatever else the file launches.

    ## Why it matters
    A launch written in a form speclint cannot read (a command name held in a variable, a
    command built at run time, a language it has no front-end for) would otherwise be passed
    over in silence, and the run would end with "All checks passed". This finding says the
    file was not checked.

    ## Example
    ```bash
    watch -n 600 python -m sglang.launch_server --model-path /models/llama --port 30000
    ```

    ## Use instead
    ```bash
    while true; do
      python -m sglang.launch_server --model-path /models/llama --port 30000
      sleep 600
    done
    ```
    """

    code = "SLM005"
    gates = ("diagnostic:no-launch-found",)
    name = "no-launch-found"
    severity = Severity.INFO
    summary = "The file names SGLang's launcher, but speclint found no launch in it to check."
    invalid = (
        Example(
            "watch -n 600 python -m sglang.launch_server --model-path m --port 30000\n",
            at="1:24",
            says="this file names `sglang.launch_server` but speclint found no launch",
            fixed=NO_FIX,
        ),
        Example(
            "watch -n 600 python -m sglang_router.launch_server --model-path m --dp-size 2\n",
            at="1:24",
            says="this file names `sglang_router.launch_server` but speclint found no launch",
            fixed=NO_FIX,
        ),
        Example(
            "python -m sglang.launch_server --model-path m &\nwatch -n 60 python -m sglang.launch_server --model-path m\n",
            at="2:13",
            says="speclint did not read this command, which runs `python -m sglang.launch_server` through `watch`",
            fixed=NO_FIX,
        ),
    )
    valid = (
        "python -m sglang.launch_server --model-path m\n",
        "python -m sglang_router.launch_server --model-path m --dp-size 2 --router-policy cache_aware\n",
        "python -m sglang_router.launch_router --worker-urls http://a:30000 http://b:30000\n",
        "python -m sglang.bench_one_batch --model-path m --batch-size 1 16 --input-len 256\n",
        "python -m sglang.bench_serving --backend sglang --num-prompts 10\n",
        "# python -m sglang.launch_server is started elsewhere\necho done\n",
        'python -m sglang.launch_server --model-path m &\npkill -f "sglang.launch_server"\n',
    )

    def check_file(self, ctx: FileContext) -> Iterator[Finding]:
        for diagnostic in ctx.diagnostics:
            if diagnostic.kind == "no-launch-found":
                yield self.report(
                    ctx.path,
                    diagnostic.span,
                    diagnostic.message,
                    "write the launch as a plain command speclint can read, or "
                    "check it as it starts: `speclint run -- <command>`",
                )
