//! Not written yet.

pub fn run(_: &std::path::Path, _: bool) -> anyhow::Result<()> {
    anyhow::bail!("this xtask command is not written yet")
}
