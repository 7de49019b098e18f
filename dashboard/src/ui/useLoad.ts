// A screen's data: loading, error message and value, reloaded on demand.
import { ref, type Ref } from "vue";
import { errorMessage } from "../api";

export function useLoad<T>(fn: () => Promise<T>, initial: T) {
  const data = ref(initial) as Ref<T>;
  const loading = ref(true);
  const error = ref("");
  async function reload() {
    loading.value = true;
    error.value = "";
    try {
      data.value = await fn();
    } catch (e) {
      error.value = errorMessage(e);
    } finally {
      loading.value = false;
    }
  }
  void reload();
  return { data, loading, error, reload };
}
