// The theme first: it sets data-theme on <html> before anything renders.
import "./theme";
import { createApp } from "vue";
import App from "./App.vue";
import { router } from "./router";
import { resume } from "./session";
import "./style.css";

void resume();
createApp(App).use(router).mount("#app");
