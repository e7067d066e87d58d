# Run from the repository root after scripts/record-rag-platforms.mjs (python3 scripts/expect-platforms.py).
# Writes the `expected` of the recorded platform fixtures, by hand: the text without
# markers and the cited substrings; offsets are computed here in UTF-16 units.
import json
def u16(s): return len(s.encode('utf-16-le')) // 2
def cites(text, items):
    out=[]; pos=0
    for sub, ids in items:
        i=text.find(sub, pos); assert i>=0, sub
        out.append({"start":u16(text[:i]),"end":u16(text[:i+len(sub)]),"sources":ids}); pos=i+len(sub)
    return out
def put(path, expected):
    d=json.load(open(path)); d['expected']=expected
    json.dump(d, open(path,'w'), indent=2, ensure_ascii=False); open(path,'a').write('\n')

t="Die Zugspitze ist mit 2.962 m der höchste Berg Deutschlands. Die Seilbahn überwindet 1.945 Höhenmeter.\n\n- Gipfelstation: 2.943 m"
put('tests/fixtures/azure/on_your_data.json', {"text":t,"format":"azure","sources":[
  {"id":"doc1","number":1,"kind":"web","title":"Zugspitze","url":"https://de.wikipedia.org/wiki/Zugspitze","domain":"de.wikipedia.org","snippet":"Die Zugspitze ist mit 2962 m ü. NHN der höchste Gipfel des Wettersteingebirges und der höchste Berg Deutschlands.","metadata":{"chunk_id":"0"},"citeCount":2},
  {"id":"doc2","number":2,"kind":"file","title":"Seilbahn Zugspitze","url":None,"domain":"bahnen/seilbahn-zugspitze.pdf","metadata":{"filepath":"bahnen/seilbahn-zugspitze.pdf","chunk_id":"3"},"citeCount":1},
  {"id":"doc3","number":3,"kind":"file","title":"stationen.md","domain":"bahnen/stationen.md","citeCount":1}],
  "citations":cites(t,[("Die Zugspitze ist mit 2.962 m der höchste Berg Deutschlands",["doc1"]),("Die Seilbahn überwindet 1.945 Höhenmeter",["doc2","doc1"]),("Gipfelstation: 2.943 m",["doc3"])]),
  "diagnostics":[],"metadata":{"id":"chatcmpl-9f2Kx1","model":"gpt-4o","intent":"[\"Wie hoch ist die Zugspitze?\", \"Höhe Zugspitze\"]"}})

t="Grok 4 wurde im Juli 2025 vorgestellt. It ranks first on Humanity’s Last Exam."
put('tests/fixtures/xai/responses_inline_citations.json', {"text":t,"format":"xai","sources":[
  {"id":"1","number":1,"title":"Grok 4 | xAI","url":"https://x.ai/news/grok-4","cited":True,"citeCount":2},
  {"id":"2","number":2,"title":None,"url":"https://x.ai/news/grok-4-benchmarks","cited":True,"citeCount":1},
  {"id":"citation-3","number":3,"url":"https://en.wikipedia.org/wiki/Grok_(chatbot)","cited":False,"citeCount":0}],
  "citations":cites(t,[("Grok 4 wurde im Juli 2025 vorgestellt",["1"]),("It ranks first on Humanity’s Last Exam",["2","1"])]),
  "diagnostics":[],"metadata":{"model":"grok-4-fast-reasoning","other_output":[{"type":"web_search_call"}]}})

t="Die Ariane 6 startete im Juli 2024 zum ersten Mal."
put('tests/fixtures/xai/chat_completion_citations.json', {"text":t,"format":"xai","sources":[
  {"id":"1","number":1,"url":"https://www.esa.int/Ariane_6","cited":True},
  {"id":"citation-2","number":2,"url":"https://de.wikipedia.org/wiki/Ariane_6","cited":False}],
  "citations":cites(t,[("Die Ariane 6 startete im Juli 2024 zum ersten Mal",["1"])]),"diagnostics":[]})

t="Den Friedensnobelpreis 2024 erhielt Nihon Hidankyō, a group of hibakusha founded in 1956."
put('tests/fixtures/mistral/chat_references.json', {"text":t,"format":"mistral","sources":[
  {"id":"ref-0","number":1,"title":"Friedensnobelpreis 2024","url":"https://de.wikipedia.org/wiki/Friedensnobelpreis_2024","snippet":"Der Friedensnobelpreis 2024 ging an Nihon Hidankyō, die Organisation der Überlebenden von Hiroshima und Nagasaki.","published":"2024-11-26T17:39:55.057454","metadata":{"source":"wikipedia"},"citeCount":2},
  {"id":"ref-1","number":2,"title":"Nihon Hidankyo","snippet":"Nihon Hidankyo is a Japanese organization of atomic bomb survivors. … It was founded in 1956.","citeCount":1}],
  "citations":cites(t,[("Den Friedensnobelpreis 2024 erhielt Nihon Hidankyō",["ref-0"]),("a group of hibakusha founded in 1956",["ref-1","ref-0"])]),"diagnostics":[]})

t="Le prix Nobel de la paix 2024 a été décerné à Nihon Hidankyō. Its members survived Hiroshima and Nagasaki."
put('tests/fixtures/mistral/conversation_tool_references.json', {"text":t,"format":"mistral","sources":[
  {"id":"tool-ref-1","number":1,"title":"The Nobel Peace Prize 2024 - NobelPrize.org","url":"https://www.nobelprize.org/prizes/peace/2024/summary/","metadata":{"tool":"web_search","favicon":"https://www.nobelprize.org/favicon.ico"}},
  {"id":"tool-ref-2","number":2,"title":"Nihon Hidankyo - Wikipedia","url":"https://en.wikipedia.org/wiki/Nihon_Hidankyo"}],
  "citations":cites(t,[("Le prix Nobel de la paix 2024 a été décerné à Nihon Hidankyō.",["tool-ref-1"]),("Its members survived Hiroshima and Nagasaki.",["tool-ref-2"])]),"diagnostics":[],
  "metadata":{"conversationId":"conv_0682c6a1e4ab7f2b8000cbe1a3d5e7f9","other_outputs":[{"type":"tool.execution"}]}})

t="Der Kölner Dom ist 157 m hoch 🏰. It was completed in 1880."
lc={"text":t,"format":"langchain","sources":[
  {"id":"src-1","number":1,"title":"Kölner Dom – Wikipedia","url":"https://de.wikipedia.org/wiki/K%C3%B6lner_Dom","metadata":{"source":"url_citation"}},
  {"id":"src-2","number":2,"title":"Cologne Cathedral","url":"https://en.wikipedia.org/wiki/Cologne_Cathedral"}],
  "citations":cites(t,[("Der Kölner Dom ist 157 m hoch",["src-1"]),("It was completed in 1880.",["src-2"])]),"diagnostics":[]}
put('tests/fixtures/langchain/chat_openai_message.json', dict(lc, metadata={"id":"resp_67ccd2bed1ec8190","tool_calls":[]}))
put('tests/fixtures/langchain/content_blocks.json', lc)
