//! Not written yet.

pub fn run(_: &std::path::Path) -> anyhow::Result<()> {
    anyhow::bail!("this xtask command is not written yet")
}
