"""Launch forms seen in public SGLang launch files with speculative decoding (EAGLE, EAGLE3,
NEXTN, NGRAM, STANDALONE), each described by a fixture of our own (fixtures/shell/forms25,
fixtures/python/forms25): every launch is found and read whole, or what speclint could not
read is said (SLM004 partly read, SLM005 not read, SLM002 a comment that ends a continued
command), and no finding is a false error. Each finding is asserted at the token it names."""

from __future__ import annotations

import pytest
from fixture_file import FixtureFile

EXPECTED = {
    # getopts with `-:` long options, flags gathered in an array, run inside a Singularity image
    "shell/forms25/s01_singularity_getopts.sh": [
        ("SLM004", 26, 57, '"${PORT}"'),
        ("FLG002", 27, 47, "--cuda-graph-max-bs"),
    ],
    # a while/case argument loop, flags gathered in one string expanded unquoted
    "shell/forms25/s02_case_args_string.sh": [("SLM004", 23, 33, "$args")],
    # the command in a variable between Python-style triple quotes, run with `eval $command`
    "shell/forms25/s03_triple_quoted_eval.sh": [("FLG002", 10, 5, "--cuda-graph-bs")],
    # abbreviations argparse expands (or finds ambiguous)
    "shell/forms25/s04_abbreviated_flags.sh": [
        ("FLG003", 2, 69, "--speculative-algo"),
        ("FLG002", 3, 5, "--speculative-draft"),
        ("FLG002", 5, 5, "--cuda-graph-max-bs"),
        ("FLG003", 5, 28, "--mem-fraction"),
    ],
    # STANDALONE drafter after `source conda.sh` and `conda activate`
    "shell/forms25/s05_standalone_conda.sh": [("FLG003", 14, 5, "--tp")],
    # a comment line inside a `\`-continued launch: the MTP flags after it are a new command
    "shell/forms25/s06_comment_breaks_continuation.sh": [
        ("FLG003", 5, 86, "--tp"),
        ("SLM002", 8, 1, "# MTP: the nextn layer as drafter"),
    ],
    # a wrapper script speclint cannot see into: said not read
    "shell/forms25/s07_wrapper_script_prefix.sh": [("SLM005", 5, 33, "sglang.launch_server")],
    # model and node rank from `$1` with `&& shift`; `export` continued over lines
    "shell/forms25/s08_positional_and_export_continued.sh": [
        ("SLM004", 12, 46, '"$model_path"'),
        ("FLG003", 12, 60, "--tp"),
    ],
    # docker run with the image tag deciding the SGLang release
    "shell/forms25/s09_docker_eagle3.sh": [("SPD003", 8, 31, "EAGLE3")],
    # sbatch + srun bash -c "..." multi-node NEXTN, the node rank from Slurm
    "shell/forms25/s10_sbatch_nextn.sh": [
        ("FLG003", 8, 47, "--tp"),
        ("SLM004", 9, 22, "${MASTER}:5000"),
        ("SPD003", 10, 29, "NEXTN"),
    ],
    # nohup ... > log 2>&1 & then a health poll and a benchmark
    "shell/forms25/s11_nohup_wait.sh": [("SPD003", 6, 27, "EAGLE3")],
    # sweeps: `read` from a here-string per config (unknown), then `for topk in 1 2`
    "shell/forms25/s12_topk_sweep_loop.sh": [
        ("SPD003", 6, 29, "EAGLE"),
        ("SLM004", 7, 29, "$steps"),
        ("SPD003", 15, 29, "EAGLE"),
        ("SPD001", 16, 93, "16"),
    ],
    # `sglang serve` with n-gram speculation
    "shell/forms25/s13_sglang_serve_ngram.sh": [("SPD003", 3, 27, "NGRAM")],
    # a Dynamo SGLang worker beside the Dynamo frontend
    "shell/forms25/s14_dynamo_worker.sh": [
        ("FLG003", 5, 29, "--tp"),
        ("SPD003", 6, 27, "EAGLE"),
        ("SPD001", 7, 87, "16"),
    ],
    # `ssh HOST bash -s <<'REMOTE'`: the remote script in a here-document
    "shell/forms25/s15_ssh_heredoc.sh": [("FLG005", 10, 37, "0.8x")],
    # the launch line handed to a shell on its standard input: `ssh HOST <<< "$LAUNCH ..."`,
    # `echo "$LAUNCH ..." | bash`, `printf '%s\n' "$LAUNCH ..." | docker exec -i C bash`
    # (before: each passed over in silence)
    "shell/forms25/s16_stdin_scripts.sh": [
        ("FLG003", 5, 61, "--tp"),
        ("FLG005", 9, 72, "0.9x"),
        ("FLG005", 11, 52, "many"),
        ("FLG005", 12, 65, "lots"),
    ],
    # a benchmark driver: popen_launch_server(other_args=...) built from its parameters and
    # from ServerArgs.from_cli_args (the program's own command line: said not read)
    "python/forms25/p01_bench_configs.py": [
        ("FLG002", 41, 20, "--cuda-graph-max-bs"),
        ("SLM004", 45, 9, "server_args.model_path"),
        ("SLM005", 55, 19, "ServerArgs.from_cli_args"),
    ],
    # sgl.Engine(**ENGINE_KW, mem_fraction_static=...) with a dict(...) of settings
    "python/forms25/p02_engine_dict.py": [("VER001", 10, 5, "cuda_graph_max_bs")],
    # launch_server_cmd with a triple-quoted shell command, as the docs notebooks write it
    "python/forms25/p03_notebook_cmd.py": [("SPD001", 8, 63, "16")],
    # an f-string command split with shlex.split
    "python/forms25/p04_fstring_shlex.py": [("FLG005", 9, 66, "3000o")],
    # an argv from argparse values (unknown) and literal speculative flags
    "python/forms25/p05_argparse_defaults.py": [
        ("SLM004", 11, 70, "args.model"),
        ("FLG003", 11, 83, "--tp"),
    ],
    # run_bench_serving(other_server_args=[...]): read through popen_launch_server, as SGLang's
    # test_utils.py passes other_server_args on (forms26; before: said not read)
    "python/forms25/p06_bench_helpers.py": [
        ("SLM004", 24, 17, "DEFAULT_EAGLE_DRAFT_MODEL_FOR_TEST"),
        ("FLG005", 32, 18, "0.7x"),
    ],
    # test classes whose other_args come from class attributes a subclass overrides
    "python/forms25/p07_subclass_args.py": [
        ("SPD001", 28, 17, "cls.spec_tokens"),
        ("FLG005", 43, 45, "high"),
    ],
    # argvs copied from a shared base (`.copy()`, `copy.deepcopy`: before, passed over in
    # silence beside the other launches), joined for shell=True, other_args spliced, a copy
    # extended from a generator over a dict's items
    "python/forms25/p08_copied_argv.py": [
        ("FLG005", 15, 100, "q"),
        ("FLG005", 21, 41, "e"),
        ("FLG005", 25, 110, "2x"),
        ("FLG005", 30, 18, "--{key}={value}"),  # .extend(generator): was a word of any flags
    ],
    # an argv passed through a project helper speclint cannot follow, beside a read launch:
    # said not read (before: "All checks passed" over it)
    "python/forms25/p09_wrapped_argv.py": [
        ("SLM005", 11, 11, "subprocess.Popen"),
        ("SLM005", 15, 9, "subprocess.Popen"),  # through a name the helper's result was assigned to
    ],
}


@pytest.mark.parametrize("relative", sorted(EXPECTED))
def test_each_public_launch_form_is_read_or_said_unread(relative: str) -> None:
    found = [f[:4] for f in FixtureFile(relative).findings() if f[0] != "DRF011"]
    assert found == EXPECTED[relative]


def test_the_triple_quoted_command_is_placed_where_its_value_writes_each_flag() -> None:
    (finding,) = [
        f for f in FixtureFile("shell/forms25/s03_triple_quoted_eval.sh").findings() if f[0] == "FLG002"
    ]
    assert finding[4].startswith("`--cuda-graph-bs` is ambiguous in SGLang 0.5.23")


def test_a_comment_inside_a_continued_launch_says_which_flags_are_lost() -> None:
    fixture = FixtureFile("shell/forms25/s06_comment_breaks_continuation.sh")
    (message,) = [f[4] for f in fixture.findings() if f[0] == "SLM002"]
    assert "`--speculative-algo` and the flags after it on the following lines are not passed" in message


def test_text_a_shell_gets_on_standard_input_is_read_only_for_a_shell() -> None:
    from speclint.engine import lint_text

    launch = "python3 -m sglang.launch_server --model-path m --tp-size 2x"
    for script in (f'bash <<< "{launch}"', f'echo "{launch}" | bash', f"printf '%s\\n' '{launch}' | sh -s"):
        assert [f.code for f in lint_text(script + "\n", "run.sh").findings] == ["FLG005"], script
    for script in (f'cat <<< "{launch}"', f'echo "{launch}" | tee cmd.txt'):  # not a shell: printed
        assert "FLG005" not in [f.code for f in lint_text(script + "\n", "run.sh").findings], script


def test_an_argv_through_an_unknown_helper_is_said_not_read_beside_a_read_launch() -> None:
    message, named = [f[4] for f in FixtureFile("python/forms25/p09_wrapped_argv.py").findings()]
    assert "runs `pinned`, made by `pin_to_gpus(BASE + [" in named and "at line 14, which" in named
    assert message == (
        "speclint did not read this launch: `subprocess.Popen(...)` at line 11 runs "
        '`pin_to_gpus(BASE + ["--speculative-al...`, which speclint cannot read (`pin_to_gpus(...)` '
        "is computed when the program runs), so nothing in it was checked"
    )


def test_an_unread_wrapper_says_so() -> None:
    (wrapper,) = [f[4] for f in FixtureFile("shell/forms25/s07_wrapper_script_prefix.sh").findings()]
    assert "speclint reads no launch through `/opt/libs/run-with-new-libstdc.sh`" in wrapper


def test_a_command_string_with_a_substitution_points_at_its_flags_where_written() -> None:
    from speclint.engine import lint_text

    text = 'CMD="python3 -m sglang.launch_server --model-path m --host $(hostname -i) --tp-size 2x"\n$CMD\n'
    found = [(f.code, f.span.line, f.span.column) for f in lint_text(text, "serve.sh").findings]
    assert found == [("FLG005", 1, text.index("2x") + 1), ("SLM004", 2, 1)]  # was both at `$CMD`
