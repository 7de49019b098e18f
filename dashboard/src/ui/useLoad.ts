// A screen's data: loading, error message and value, reloaded on demand (the latest request wins).
import { ref, type Ref } from "vue";
import { errorMessage } from "../api";

export function useLoad<T>(fn: () => Promise<T>, initial: T) {
  const data = ref(initial) as Ref<T>;
  const loading = ref(true);
  const error = ref("");
  // Only the latest request's answer counts: an earlier one arriving late (fast paging) is dropped.
  let latest = 0;
  async function reload() {
    const mine = ++latest;
    loading.value = true;
    error.value = "";
    try {
      const value = await fn();
      if (mine === latest) data.value = value;
    } catch (e) {
      if (mine === latest) error.value = errorMessage(e);
    } finally {
      if (mine === latest) loading.value = false;
    }
  }
  void reload();
  return { data, loading, error, reload };
}
