// Starts `ti82 dap` for debug sessions of type "ti82" (the adapter speaks the Debug Adapter
// Protocol on its standard input and output).
const vscode = require("vscode");

function activate(context) {
  const factory = {
    createDebugAdapterDescriptor() {
      const path = vscode.workspace.getConfiguration("ti82").get("path") || "ti82";
      return new vscode.DebugAdapterExecutable(path, ["dap"]);
    },
  };
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory("ti82", factory)
  );
}

function deactivate() {}

module.exports = { activate, deactivate };
