//! `npm start` / `cargo run --example demo`: parses two sample answers and prints the
//! normalized JSON (npm/README.md, "parse"; UTF-16 offsets) and the markdown export of each.
//!
//! 1. A citation_map answer (docs/formats.md, "citation_map"): `[1]` markers with `{"1": {text, source,
//!    title, score, metadata}}`.
//! 2. A canonical answer (docs/formats.md, "canonical"): `[[S:n]]` markers over a `sources_list` with
//!    sids 7, 12 and 123, renumbered 1..k in order of first citation.

use citekit::core::export::to_markdown;
use citekit::core::json_output::to_json;
use citekit::core::offsets::PositionEncoding;
use citekit::{Data, Options};
use serde_json::json;

fn show(
    title: &str,
    answer: &str,
    data: &serde_json::Value,
) -> Result<(), Box<dyn std::error::Error>> {
    println!("=== {title}\n");
    println!("--- answer\n{answer}\n");
    let parsed = match citekit::parse(Some(answer), Data::Json(data), &Options::default()) {
        Ok(parsed) => parsed,
        Err(e) => {
            println!("--- parse failed: {e}\n");
            return Ok(());
        }
    };
    let json = to_json(&parsed, PositionEncoding::Utf16);
    println!(
        "--- parse(answer, data) as JSON\n{}\n",
        serde_json::to_string_pretty(&json)?
    );
    println!("--- markdown export\n{}\n", to_markdown(&parsed));
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let answer = "AEGIS RAG is an agentic RAG system [1] that combines vector search and \
                  graph reasoning [2]. It streams tokens to the browser [1][2].";
    let citation_map = json!({
        "1": {
            "text": "AEGIS RAG is an agentic RAG system...",
            "source": "docs/core/CLAUDE.md",
            "title": "CLAUDE.md",
            "score": 0.92,
            "metadata": {}
        },
        "2": {
            "text": "The system combines vector search with graph reasoning...",
            "source": "docs/architecture/README.md",
            "title": "Architecture Overview",
            "score": 0.88,
            "metadata": {"section": "orchestration"}
        }
    });
    show("citation_map", answer, &citation_map)?;

    let answer = "LangGraph models an agent as a graph of nodes and edges [[S:7]]. Neo4j \
                  stores the knowledge graph while Qdrant holds the vectors [[S:12,123]].\n\n\
                  - Hybrid retrieval merges both result lists [[S:12]]\n\
                  - 检索结果在生成之前重新排序 😀 [[S:123]]\n\n\
                  ```python\nhits = search(query)  # [[S:7]] stays: it is code\n```\n";
    let sources_list = json!([
        {"sid": 7, "title": "LangGraph overview", "url": "https://langchain-ai.github.io/langgraph/",
         "text": "LangGraph is a library for building stateful, multi-actor applications.",
         "objective_relevance": 0.95, "published_time_iso": "2025-01-02T12:34:56Z"},
        {"sid": 12, "title": "Neo4j graph database", "url": "https://neo4j.com/product/",
         "text": "Neo4j is a native graph database.", "query_relevance": 0.87},
        {"sid": 123, "title": "Qdrant vector search", "url": "https://qdrant.tech/",
         "text": "Qdrant is a vector similarity search engine."},
        {"sid": 5, "title": "An uncited page", "url": "https://example.com/uncited"}
    ]);
    show("canonical [[S:n]]", answer, &sources_list)?;
    Ok(())
}
