# Generated documentation: docs/results/<id>.md for every output of the catalogue, their index, the index by paper
# result docs/paper_index.md, and the generated
# blocks of the hand-written documents (README.md, ARTIFACT-APPENDIX.md, docs/*.md: claim counts, claims map, run
# times), all rendered by privtest_artifact.docs.render_repository (workflow/scripts/render_docs.py) from tracked inputs only:
# the run's claims, tables and analysis, and the committed measurement records benchmarks/reproduction_time.json and
# benchmarks/job_times.csv (written only by python benchmarks/reproduction_time.py --record, never by a run), so a
# reproduction rewrites them byte for byte. The config's
# docs.root says where they go: "." rewrites them in place (the default run), another directory gets copies
# (config/quick.yaml). tests/test_docs.py renders them from the committed snapshots and compares.


rule docs:
    input:
        claims="figures/claims.csv",
        outputs=catalogue_outputs(),
        notebooks=[f"notebooks/{i}.ipynb" for i in ids()],
        analysis=[catalogue.ANALYSIS.format(i) for i in ids()],
        measurement="benchmarks/reproduction_time.json",
        job_times="benchmarks/job_times.csv",
        library=library("render_docs.py"),
    output:
        pages=[docs_path(f"docs/results/{i}.md") for i in ids()],
        index=docs_path("docs/results/README.md"),
        paper_index=docs_path("docs/paper_index.md"),
        claims=docs_path("docs/results/claims.csv"),
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
    message:
        "docs -> the result pages ({output.index}) and the generated blocks of {params.documents}"
    script:
        "../scripts/render_docs.py"
