# Generated documentation: docs/results/<id>.md for every output of the catalogue, their index, and the generated
# blocks of the hand-written documents (README.md, ARTIFACT-APPENDIX.md, docs/*.md: claim counts, claims map, run
# times), all rendered from the run's files by privtest.docs (workflow/scripts/render_docs.py). The config's
# docs.root says where they go: "." rewrites them in place (the default run), another directory gets copies
# (config/quick.yaml). tests/test_docs.py renders them from the committed snapshots and compares.


rule docs:
    input:
        claims="figures/claims.csv",
        outputs=catalogue_outputs(),
        notebooks=[f"notebooks/{i}.ipynb" for i in ids()],
        analysis=analysis_inputs,
        measurement="benchmarks/reproduction_time.json",
        library=library("render_docs.py"),
    output:
        pages=[docs_path(f"docs/results/{i}.md") for i in ids()],
        index=docs_path("docs/results/README.md"),
        claims=docs_path("docs/results/claims.csv"),
        runtimes=docs_path("docs/results/runtimes.csv"),
        documents=document_outputs(),
    log:
        "results/logs/docs.log",
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        # output id -> kind, paper section (catalogue) for the result pages
        outputs=[
            {"id": i, "kind": CATALOGUE[i].kind, "section": CATALOGUE[i].section}
            for i in ids()
        ],
        documents=DOCUMENTS,
        root=DOCS_ROOT,
    script:
        "../scripts/render_docs.py"
