export const WORKSPACE_COOKIE = "dw_workspace";
