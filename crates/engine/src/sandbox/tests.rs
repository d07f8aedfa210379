use super::*;

#[test]
fn a_box_travels_in_a_request_as_it_is() {
    let sandbox = Sandbox {
        size: 64 << 20,
        base: "/dev/shm".into(),
        writable: vec!["/dev/shm/companion-logs".into()],
        hidden: vec!["/book/.companion-cache".into(), "/other".into()],
        shown: vec!["/book/.companion-cache/crates".into()],
        read_only: vec!["/book".into()],
        lesser: false,
        compiler: true,
    };
    let mut fields = fields_of(&sandbox).into_iter();
    assert_eq!(Sandbox::decode(&mut fields), Some(sandbox));
    assert_eq!(fields.next(), None);
}

#[test]
fn overlay_options_refuse_their_separators() {
    assert!(option_path(Path::new("/dev/shm/x")).is_ok());
    assert!(option_path(Path::new("/tmp/a,b")).is_err());
    assert!(option_path(Path::new("/tmp/a:b")).is_err());
}
