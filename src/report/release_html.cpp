// Report stage: the release diff as one self-contained HTML page. The data is embedded as JSON
// and a small script builds the sortable, filterable table and the per-method details (path
// conditions, witnesses, covered lines of each NEQ partition in each version); nothing is
// loaded from elsewhere, so the page works from a CI artifact or a mail attachment.
#include <filesystem>
#include <fstream>

#include "format.hpp"
#include "pasda/report/release_report.hpp"
#include "pasda/report/report.hpp"

namespace pasda::report {

using release::Category;
using release::MethodEntry;
using release::ReleaseResult;

namespace {

constexpr std::size_t kMaxPartitions = 25;        // per method, in the page
constexpr std::size_t kMaxText = 800;             // characters of a path condition or an output
constexpr std::size_t kDetailBudget = 8u << 20;   // characters of partition details in one page
constexpr std::size_t kMaxReason = 400;           // characters of a reason or note in the table

std::string clipText(const std::string& s, std::size_t max) {
  return s.size() <= max ? s : s.substr(0, max) + " ...";
}

std::string clip(const std::string& s) {
  return s.size() <= kMaxText ? s : s.substr(0, kMaxText) + " ... (" + std::to_string(s.size() - kMaxText) + " more)";
}

Json partitionData(const analysis::PartitionResult& p) {
  return Json{{"r", classify::verdictName(p.result)},
              {"pc", clip(p.path_condition.empty() ? std::string("true") : p.path_condition)},
              {"w", p.witness_call},
              {"diff", p.differs},
              {"lo", formatLines(p.lines_old)},
              {"ln", formatLines(p.lines_new)},
              {"oo", clip(p.old_effect.text())},
              {"on", clip(p.new_effect.text())},
              {"by", p.decided_by}};
}

bool decided_eq(const MethodEntry& m) { return m.verdict && *m.verdict == classify::Verdict::EQ; }

// Partition details go to the methods whose verdict needs explaining (NEQ and undecided),
// within a budget for the whole page; the JSON output has all of them.
Json methodData(const MethodEntry& m, std::size_t& budget) {
  Json j = Json{{"c", m.cls},
                {"m", m.name},
                {"d", m.descriptor},
                {"cat", release::categoryName(m.category)},
                {"res", m.verdict ? classify::verdictName(*m.verdict) : ""},
                {"t", m.time_s},
                {"reason", clipText(m.reason, kMaxReason)},
                {"note", clipText(m.note, kMaxReason)},
                {"api", m.api_changes}};
  const bool decided = m.verdict && (*m.verdict == classify::Verdict::EQ || *m.verdict == classify::Verdict::NEQ);
  j["why"] = m.run && !decided ? undecidedReason(m) : std::string();
  const analysis::PartitionResult* neq = firstNeq(m);
  j["w"] = neq ? neq->witness_call : std::string();
  j["cause"] = methodCauses(m);
  j["pre"] = m.run ? m.run->precheck : std::string();
  j["parts"] = Json::array();
  if (m.run && !decided_eq(m) && m.run->reported_iteration < m.run->iterations.size()) {
    const auto& ps = m.run->iterations[m.run->reported_iteration].partitions;
    std::size_t shown = 0;
    for (; shown < ps.size() && shown < kMaxPartitions && budget > 0; ++shown) {
      Json p = partitionData(ps[shown]);
      const std::size_t size = dumpJson(p).size();
      budget = size >= budget ? 0 : budget - size;
      j["parts"].push_back(std::move(p));
    }
    if (ps.size() > shown) j["more"] = ps.size() - shown;
  }
  return j;
}

const char* kStyle = R"CSS(
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em}table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
th{cursor:pointer;background:#f4f4f4;position:sticky;top:0}th.sorted-asc:after{content:" \25B2"}th.sorted-desc:after{content:" \25BC"}
tr.m{cursor:pointer}tr.m:hover{background:#f8f8ff}code,.mono{font-family:ui-monospace,monospace;font-size:12px}
.NEQ{color:#b00;font-weight:bold}.EQ{color:#070}.undecided{color:#a60}
.detail td{background:#fafafa}.detail pre{white-space:pre-wrap;margin:2px 0}
#summary td,#summary th{border:1px solid #ddd;text-align:right}#filters{margin:1em 0}
)CSS";

const char* kScript = R"JS(
(function(){
  var data = JSON.parse(document.getElementById('pasda-data').textContent);
  function el(tag, cls, text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!==undefined)e.textContent=text;return e;}
  function resClass(r){return r==='NEQ'?'NEQ':r==='EQ'?'EQ':r?'undecided':'';}
  var cols=[['c','Class'],['m','Method'],['cat','Category'],['res','Result'],['t','Time (s)'],['info','Witness / reason']];
  var sortKey='res', sortDir=1;
  var order={'NEQ':0,'TIMEOUT':1,'ERROR':1,'UNKNOWN':1,'MAYBE_NEQ':1,'MAYBE_EQ':1,'DEPTH_LIMITED':1,'EQ':2,'':3};
  function info(m){return m.w||m.pre||m.why||m.note||m.reason||'';}
  function value(m,k){if(k==='info')return info(m);if(k==='res')return order[m.res]!==undefined?order[m.res]:1;if(k==='m')return m.m+m.d;return m[k];}
  var table=el('table');table.id='methods';var head=el('tr');
  cols.forEach(function(c){var th=el('th',null,c[1]);th.dataset.key=c[0];th.onclick=function(){
    if(sortKey===c[0])sortDir=-sortDir;else{sortKey=c[0];sortDir=1;}render();};head.appendChild(th);});
  var thead=el('thead');thead.appendChild(head);table.appendChild(thead);var body=el('tbody');table.appendChild(body);
  document.getElementById('table').appendChild(table);
  var text=document.getElementById('filter'), cat=document.getElementById('cat'), res=document.getElementById('res');
  [text,cat,res].forEach(function(x){x.oninput=render;});
  function detail(m){
    var tr=el('tr','detail');var td=el('td');td.colSpan=cols.length;
    td.appendChild(el('div',null,m.c+'.'+m.m+m.d));
    if(m.reason)td.appendChild(el('div',null,'Why '+m.cat+': '+m.reason));
    if(m.note)td.appendChild(el('div',null,'Note: '+m.note));
    if(m.pre)td.appendChild(el('div',null,'Pre-check: '+m.pre));
    if(m.cause&&m.cause.length)m.cause.forEach(function(c){td.appendChild(el('div',null,'Cause: '+c));});
    if(m.api.length)td.appendChild(el('div',null,'Signature changes: '+m.api.join('; ')));
    if(m.parts.length){var t=el('table');var h=el('tr');['#','Result','Path condition','Witness','Lines old','Lines new','Output old','Output new'].forEach(function(x){h.appendChild(el('th',null,x));});t.appendChild(h);
      m.parts.forEach(function(p,i){var r=el('tr');[String(i+1),p.r,p.pc,p.w+(p.diff?' ('+p.diff+')':''),p.lo,p.ln,p.oo,p.on].forEach(function(x,k){
        var c=el('td',k===1?resClass(p.r):'mono');c.appendChild(el('pre',null,x));r.appendChild(c);});t.appendChild(r);});
      td.appendChild(t);}
    if(m.more)td.appendChild(el('div',null,m.more+' partition(s) not shown here: see the JSON output'));
    tr.appendChild(td);return tr;}
  function render(){
    var q=text.value.toLowerCase(), cv=cat.value, rv=res.value;
    var rows=data.methods.filter(function(m){
      if(cv&&m.cat!==cv)return false;
      if(rv==='undecided'?resClass(m.res)!=='undecided':(rv&&m.res!==rv))return false;
      return !q||(m.c+'.'+m.m+m.d).toLowerCase().indexOf(q)>=0;});
    rows.sort(function(a,b){var x=value(a,sortKey),y=value(b,sortKey);if(x<y)return -sortDir;if(x>y)return sortDir;
      return (a.c+a.m+a.d)<(b.c+b.m+b.d)?-1:1;});
    head.querySelectorAll('th').forEach(function(th){th.className=th.dataset.key===sortKey?(sortDir>0?'sorted-asc':'sorted-desc'):'';});
    while(body.firstChild)body.removeChild(body.firstChild);
    rows.forEach(function(m){var tr=el('tr','m');tr.dataset.key=m.c+'.'+m.m+m.d;tr.dataset.category=m.cat;tr.dataset.result=m.res;
      [m.c,m.m+m.d,m.cat,m.res,m.t?m.t.toFixed(2):'',info(m)].forEach(function(x,k){
        tr.appendChild(el('td',k===3?'result '+resClass(m.res):k===1||k===5?'mono':null,x));});
      var open=null;tr.onclick=function(){if(open){open.remove();open=null;}else{open=detail(m);tr.after(open);}};
      body.appendChild(tr);});
    document.getElementById('shown').textContent=rows.length+' of '+data.methods.length+' methods shown';}
  render();
  document.body.dataset.rendered='yes';
})();
)JS";

std::string escapeHtml(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

}  // namespace

std::string releaseHtml(const ReleaseResult& r) {
  const release::Counts c = release::countOf(r);
  const ReleaseTimings t = releaseTimings(r);
  Json data = Json::object();
  data["methods"] = Json::array();
  std::size_t budget = kDetailBudget;
  for (const MethodEntry& m : r.methods) data["methods"].push_back(methodData(m, budget));
  // The data sits inside a <script> element: no "<" may appear in it unescaped.
  std::string json = dumpJson(data);
  std::string safe;
  for (char ch : json) safe += ch == '<' ? std::string("\\u003c") : std::string(1, ch);
  const char* verdict = classify::verdictName(release::overallVerdict(r));
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>pasda-jvm release diff: ";
  h += verdict;
  h += "</title><style>" + std::string(kStyle) + "</style></head><body>\n";
  h += "<h1>Release diff: <span class=\"" + std::string(c.neq ? "NEQ" : c.undecided ? "undecided" : "EQ") + "\">" +
       verdict + "</span></h1>\n<p><code>" + escapeHtml(r.settings.old_path) + "</code> &rarr; <code>" +
       escapeHtml(r.settings.new_path) + "</code>";
  if (r.settings.shard_count > 1)
    h += " (shard " + std::to_string(r.settings.shard) + "/" + std::to_string(r.settings.shard_count) + ")";
  h += "</p>\n<table id=\"summary\"><tr><th>methods</th>";
  for (Category k : {Category::Added, Category::Removed, Category::Identical, Category::Affected, Category::Changed})
    h += "<th>" + std::string(release::categoryName(k)) + "</th>";
  h += "<th>NEQ</th><th>undecided</th><th>EQ</th></tr><tr><td>" + std::to_string(r.methods.size()) + "</td>";
  for (Category k : {Category::Added, Category::Removed, Category::Identical, Category::Affected, Category::Changed})
    h += "<td>" + std::to_string(c.per_category[static_cast<int>(k)]) + "</td>";
  h += "<td class=\"NEQ\">" + std::to_string(c.neq) + "</td><td>" + std::to_string(c.undecided) + "</td><td>" +
       std::to_string(c.eq) + "</td></tr></table>\n";
  h += "<p>" + std::to_string(t.analysed) + " methods analysed in " + detail::seconds(t.wall_s) + " s (median " +
       detail::seconds(t.median_s) + " s, 95th percentile " + detail::seconds(t.p95_s) + " s per method); classes: " +
       std::to_string(r.classes_old) + " old, " + std::to_string(r.classes_new) + " new, " +
       std::to_string(r.classes_common) + " in both.</p>\n";
  if (!r.classes.empty()) {
    h += "<details><summary>Class signature changes (" + std::to_string(r.classes.size()) + ")</summary><ul>";
    for (const auto& cc : r.classes) {
      std::string all;
      for (const auto& a : cc.api_changes) all += (all.empty() ? "" : "; ") + a;
      h += "<li><code>" + escapeHtml(cc.cls) + "</code>: " + escapeHtml(all) + "</li>";
    }
    h += "</ul></details>\n";
  }
  h += "<div id=\"filters\"><input id=\"filter\" placeholder=\"filter by name\"> <select id=\"cat\"><option value=\"\">all "
       "categories</option><option>added</option><option>removed</option><option>identical</option><option>affected"
       "</option><option>changed</option></select> <select id=\"res\"><option value=\"\">all results</option><option>NEQ"
       "</option><option value=\"undecided\">undecided</option><option>EQ</option></select> <span id=\"shown\"></span>"
       "</div>\n<div id=\"table\"><noscript>This page needs JavaScript to list the methods; the same data is in the "
       "JSON output.</noscript></div>\n";
  h += "<script id=\"pasda-data\" type=\"application/json\">" + safe + "</script>\n<script>" + std::string(kScript) +
       "</script>\n</body></html>\n";
  return h;
}

std::vector<std::string> writeReleaseReport(const ReleaseResult& r, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir, ec)) throw std::runtime_error("cannot create directory " + dir);
  std::vector<std::string> written;
  auto write = [&](const std::string& name, const std::string& text) {
    const fs::path p = fs::path(dir) / name;
    std::ofstream f(p, std::ios::binary);
    f << text;
    if (!f) throw std::runtime_error("cannot write " + p.string());
    written.push_back(p.string());
  };
  write("index.html", releaseHtml(r));
  write("summary.md", releaseMarkdown(r));
  return written;
}

}  // namespace pasda::report
