//! Save-state helpers: the link state machines a firmware keeps inside a calculator
//! ([`crate::Requester`], [`crate::Holder`], [`crate::PacketLink`], [`crate::ByteTransport`])
//! save to and load from the machine crate's state writer/reader, so a save state taken in
//! the middle of a transfer (even mid-bit) resumes exactly.

pub use machine::state::{StateError, StateReader, StateWriter};
use tifiles::var::{VarName, VarType, Variable};

pub(crate) fn corrupt(what: &'static str) -> StateError {
    StateError::Corrupt(what)
}

pub(crate) fn put_opt(w: &mut StateWriter, v: Option<u64>) {
    w.bool(v.is_some());
    w.u64(v.unwrap_or(0));
}

pub(crate) fn get_opt(r: &mut StateReader) -> Result<Option<u64>, StateError> {
    let some = r.bool()?;
    let v = r.u64()?;
    Ok(some.then_some(v))
}

pub(crate) fn put_name(w: &mut StateWriter, ty: VarType, name: &VarName) {
    w.u8(ty.to_byte());
    w.bytes(&name.0);
}

pub(crate) fn get_name(r: &mut StateReader) -> Result<(VarType, VarName), StateError> {
    let ty = VarType::from_byte(r.u8()?);
    let n = r.bytes()?;
    if n.len() != 8 {
        return Err(corrupt("link: variable name"));
    }
    Ok((ty, VarName::from_bytes(n)))
}

pub(crate) fn put_var(w: &mut StateWriter, v: &Variable) {
    put_name(w, v.var_type(), &v.name);
    w.bytes(&v.data.to_bytes());
}

pub(crate) fn get_var(r: &mut StateReader) -> Result<Variable, StateError> {
    let (ty, name) = get_name(r)?;
    let data = r.bytes()?;
    Variable::parse(ty, name, data).map_err(|_| corrupt("link: variable data"))
}

pub(crate) fn get_usize(r: &mut StateReader) -> Result<usize, StateError> {
    usize::try_from(r.u64()?).map_err(|_| corrupt("link: size"))
}
