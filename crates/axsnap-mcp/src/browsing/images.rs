//! What a page looks like, as files: screenshots (of the viewport, of one element, or with
//! each ref labelled on it) and the page printed to PDF.

use std::collections::HashMap;

use axsnap_cdp::CdpError;
use rmcp::model::JsonObject;
use serde_json::json;

use super::Browsing;
use crate::args::Args;
use crate::code::Code;
use crate::failure::Failure;
use crate::reply::Reply;
use crate::tool_name::ToolName;

impl Browsing {
    pub(super) async fn screenshot(&mut self, args: Option<&JsonObject>) -> Result<Reply, Failure> {
        let a = Args::new(ToolName::Screenshot.as_str(), args, &["ref", "annotate"])?;
        let r = a.opt_str("ref")?.map(str::to_string);
        if a.opt_bool("annotate")? == Some(true) {
            if r.is_some() {
                return Err(Failure::tool(
                    Code::BadArgument,
                    "annotate labels the refs in the viewport; leave out ref, or leave out annotate to shoot one element",
                ));
            }
            return self.annotated().await;
        }
        let agent = self.agent_with_page()?;
        let target = agent.target().cloned().ok_or(axsnap_agent::AgentError::<CdpError>::NoTarget)?;
        let native = match &r {
            Some(r) => Some(agent.resolve(r)?),
            None => None,
        };
        let page = agent.backend().page(&target).await?;
        let png =
            axsnap_cdp::screenshot::screenshot(&page, native.as_ref()).await.map_err(|e| match (e, &r) {
                (CdpError::StaleElement { .. }, Some(r)) => {
                    Failure::from(axsnap_agent::AgentError::<CdpError>::Stale {
                        r: r.clone(),
                        cause: CdpError::NoSuchTarget(String::new()),
                    })
                }
                (e, _) => Failure::from(e),
            })?;
        use base64::Engine as _;
        let data = base64::engine::general_purpose::STANDARD.encode(&png);
        let what = r.map(|r| format!("element {r}")).unwrap_or_else(|| "the viewport".into());
        let mut reply = Reply::message("screenshot", format!("a PNG of {what}, {} bytes", png.len()));
        reply.structured.insert("bytes".into(), json!(png.len()));
        reply.image = Some(data);
        Ok(reply)
    }

    /// A PNG of the viewport with each element that has a ref in the snapshot boxed and
    /// labelled with it (elements of the top document; those in frames are not labelled).
    async fn annotated(&mut self) -> Result<Reply, Failure> {
        let agent = self.agent_with_page()?;
        let target = agent.target().cloned().ok_or(axsnap_agent::AgentError::<CdpError>::NoTarget)?;
        // The refs of the snapshot as it is now, placed by the raw capture's boxes (projection
        // keeps none); elements of the top document only (a frame's boxes are its own).
        let tree = &agent.look().await?.tree;
        let top = tree.root().map(|r| tree.node(r).native.scope.clone());
        let refs: Vec<(String, axsnap_core::NativeId)> = tree
            .preorder()
            .filter(|(id, _)| tree.root() != Some(*id) && axsnap_core::render::ref_shown(tree, *id))
            .filter_map(|(id, _)| {
                let n = tree.node(id);
                (Some(&n.native.scope) == top.as_ref())
                    .then(|| Some((n.ref_id?.to_string(), n.native.clone())))?
            })
            .collect();
        let boxes: HashMap<&axsnap_core::NativeId, axsnap_core::tree::Rect> = match agent.last_capture() {
            Some(c) => c
                .tree
                .preorder()
                .filter_map(|(id, _)| Some((&c.tree.node(id).native, c.tree.node(id).bounds?)))
                .collect(),
            None => HashMap::new(),
        };
        let marks: Vec<axsnap_cdp::screenshot::Mark> = refs
            .iter()
            .filter_map(|(label, native)| {
                let b = boxes.get(native)?;
                Some(axsnap_cdp::screenshot::Mark { label: label.clone(), x: b.x, y: b.y, w: b.w, h: b.h })
            })
            .collect();
        drop(boxes);
        let page = agent.backend().page(&target).await?;
        let (png, drawn) = axsnap_cdp::screenshot::annotated(&page, &marks).await?;
        use base64::Engine as _;
        let data = base64::engine::general_purpose::STANDARD.encode(&png);
        let labels: Vec<&str> = drawn.iter().map(|m| m.label.as_str()).collect();
        let text = format!(
            "a PNG of the viewport, {} bytes, {} ref(s) boxed and labelled: {}",
            png.len(),
            drawn.len(),
            label_list(&labels, LABEL_LIST_CHARS)
        );
        let mut reply = Reply::message("screenshot", text);
        reply.structured.insert("bytes".into(), json!(png.len()));
        let labels: Vec<serde_json::Value> = drawn
            .iter()
            .map(|m| json!({"ref": m.label, "x": m.x.round(), "y": m.y.round(), "w": m.w.round(), "h": m.h.round()}))
            .collect();
        reply.structured.insert("labels".into(), json!(labels));
        reply.image = Some(data);
        Ok(reply)
    }

    /// The current page printed to a PDF under `--output-dir` (never over a file).
    pub(super) async fn pdf(&mut self, args: Option<&JsonObject>) -> Result<Reply, Failure> {
        let a = Args::new(ToolName::Pdf.as_str(), args, &["path"])?;
        let given = a.str("path")?.to_string();
        let Some(dir) = self.options.browser.output_dir.clone() else {
            return Err(Failure::tool(
                Code::NoOutputDir,
                "this server saves no files: start it with --output-dir DIR",
            ));
        };
        let agent = self.agent_with_page()?;
        let target = agent.target().cloned().ok_or(axsnap_agent::AgentError::<CdpError>::NoTarget)?;
        let page = agent.backend().page(&target).await?;
        let bytes = axsnap_cdp::screenshot::pdf(&page).await?;
        let (name, path) = crate::output::write_new(&dir, &given, &bytes)?;
        let mut reply =
            Reply::message("pdf", format!("wrote {name} ({} bytes) to {}", bytes.len(), path.display()));
        reply.structured.insert("path".into(), json!(path.to_string_lossy()));
        reply.structured.insert("bytes".into(), json!(bytes.len()));
        Ok(reply)
    }
}

/// Most characters of the label list in an annotated screenshot's text (a viewport's refs
/// run in document order, so ranges keep it far below this).
const LABEL_LIST_CHARS: usize = 8_000;

/// The labels drawn, every one of them, in ref order with runs of three or more consecutive
/// refs said as a range (`e4-e19`); past `max_chars`, how many more there are and where
/// their refs are read. The text is the whole answer: no client is sent anything else.
fn label_list(labels: &[&str], max_chars: usize) -> String {
    let mut numbered: Vec<(u64, &str)> = Vec::new();
    let mut other: Vec<&str> = Vec::new();
    for l in labels {
        match l.strip_prefix('e').and_then(|n| n.parse::<u64>().ok()) {
            Some(n) => numbered.push((n, l)),
            None => other.push(l),
        }
    }
    numbered.sort_unstable();
    numbered.dedup_by_key(|(n, _)| *n);
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbered.len() {
        let mut j = i;
        while j + 1 < numbered.len() && numbered[j + 1].0 == numbered[j].0 + 1 {
            j += 1;
        }
        if j - i >= 2 {
            parts.push(format!("{}-{}", numbered[i].1, numbered[j].1));
            i = j + 1;
        } else {
            parts.push(numbered[i].1.to_string());
            i += 1;
        }
    }
    parts.extend(other.iter().map(|l| l.to_string()));
    let mut out = String::new();
    for (k, p) in parts.iter().enumerate() {
        if out.len() + p.len() + 1 > max_chars {
            let rest = parts.len() - k;
            out.push_str(&format!(
                " and {rest} more labels or ranges on the image; snapshot with viewport: true lists their elements"
            ));
            break;
        }
        if k > 0 {
            out.push(' ');
        }
        out.push_str(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::label_list;

    #[test]
    fn labels_are_listed_whole_with_ranges() {
        let labels = ["e9", "e4", "e5", "e6", "e7", "e12", "e13", "e20"];
        assert_eq!(label_list(&labels, 1000), "e4-e7 e9 e12 e13 e20");
        assert_eq!(label_list(&[], 1000), "");
    }

    #[test]
    fn a_list_over_its_length_says_how_many_more() {
        let labels: Vec<String> = (0..100).map(|i| format!("e{}", i * 2)).collect();
        let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
        let text = label_list(&labels, 40);
        assert!(text.starts_with("e0 e2 e4"), "{text}");
        assert!(text.contains("more labels or ranges on the image"), "{text}");
        let listed = text.split(" and ").next().unwrap_or_default().split(' ').count();
        assert!(text.contains(&format!(" and {} more", 100 - listed)), "{text}");
    }
}
