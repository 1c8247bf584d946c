use tool_contract::{Session, Tool};

#[derive(Tool)]
#[tool(
    description = "List the warehouses the shop ships from, with their codes and cities.",
    open_world,
    data = "public"
)]
pub struct ListWarehouses {}

fn main() {
    ListWarehouses::from_arguments("{}", &Session::new()).unwrap();
    let contract = ListWarehouses::contract();
    assert_eq!(contract.name(), "list_warehouses");
    assert!(contract.open_world());
}
