use citekit::{parse, Data, Options};
use serde_json::json;

fn main() -> Result<(), citekit::core::error::ParseError> {
    let answer = "The capital of France is Paris [1], which is located in northern France [2].";
    let data = json!({
        "1": {"text": "The capital of France is Paris.", "source": "geo/france.md", "title": "France"},
        "2": {"text": "Paris is located in northern France.", "source": "geo/paris.md", "title": "Paris"}
    });
    let cited = parse(Some(answer), Data::Json(&data), &Options::default())?;

    assert_eq!(
        cited.text,
        "The capital of France is Paris, which is located in northern France."
    );
    for c in &cited.citations {
        let statement = &cited.text[c.start..c.end]; // byte offsets inside Rust
        println!("{statement:?} is supported by {:?}", c.sources);
    }
    for s in &cited.sources {
        println!(
            "[{}] {}",
            s.number,
            s.title.as_deref().unwrap_or("untitled")
        );
    }
    Ok(())
}
